// The plain-text and HTML forms of a message from one list of blocks, so the two always say the
// same. The HTML is simple and readable in any client: no images, no scripts, inline styles only,
// every value escaped.
export type MailBlock =
  | { kind: 'paragraph'; text: string }
  | { kind: 'facts'; rows: [label: string, value: string][] }
  | { kind: 'link'; label: string; url: string };

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => entities[c]!);

export function mailText(blocks: readonly MailBlock[]): string {
  return `${blocks
    .map((b) => {
      if (b.kind === 'paragraph') return b.text;
      if (b.kind === 'link') return `${b.label}:\n${b.url}`;
      return b.rows.map(([label, value]) => `${label}: ${value}`).join('\n');
    })
    .join('\n\n')}\n`;
}

export function mailHtml(title: string, blocks: readonly MailBlock[]): string {
  const body = blocks
    .map((b) => {
      if (b.kind === 'paragraph')
        return `<p style="margin:0 0 16px">${escapeHtml(b.text).replace(/\n/g, '<br>')}</p>`;
      if (b.kind === 'link')
        return `<p style="margin:0 0 16px"><a href="${escapeHtml(b.url)}" style="color:#0b57d0;font-weight:bold">${escapeHtml(b.label)}</a><br><span style="color:#444;font-size:14px">${escapeHtml(b.url)}</span></p>`;
      const rows = b.rows
        .map(
          ([label, value]) =>
            `<tr><th scope="row" style="text-align:left;padding:4px 16px 4px 0;vertical-align:top;color:#444;font-weight:normal">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeHtml(value).replace(/\n/g, '<br>')}</td></tr>`,
        )
        .join('');
      return `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">${rows}</table>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#ffffff;color:#1a1a1a;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5">
<div style="max-width:600px;margin:0 auto">
<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(title)}</h1>
${body}
</div></body></html>
`;
}
