// What a page's form answers when the cross-site check refuses it (src/http/cross-site-forms.ts):
// why, that nothing was saved, and the way back to the form to send it again from its own page.
import { html } from './html';
import { page } from './layout';

export type FormRefusal = 'crossSite' | 'expired' | 'unverified' | 'tooLarge';

const reasons: Record<FormRefusal, { title: string; why: string }> = {
  crossSite: {
    title: 'This form was sent from another site',
    why: 'Your browser says this form was sent from a page of another site, not from this service. To keep anyone from sending forms in your name, such forms are refused.',
  },
  expired: {
    title: 'This form was open too long',
    why: 'The form was loaded more than two hours ago. For your safety a form is accepted only for a while after it was loaded.',
  },
  unverified: {
    title: 'This form could not be verified',
    why: 'Your browser did not say where this form came from, and the form did not carry the code this service gives its own forms (or the code was given to another connection). To keep anyone from sending forms in your name, such forms are refused.',
  },
  tooLarge: {
    title: 'This form is too large',
    why: 'The form sent is larger than any form of this service can be.',
  },
};

export function formRefusedPage(refusal: FormRefusal, formPage: string): string {
  const { title, why } = reasons[refusal];
  return page({
    title,
    section: 'event',
    body: html`<main class="prose"><h1>${title}</h1><p>${why}</p>
<p><strong>Nothing was saved.</strong> Open the form again and send it from there.</p>
<p><a href="${formPage}">Back to the form</a></p></main>`,
  });
}
