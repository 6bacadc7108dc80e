import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { loadCertificate } from './certificate-rows';
import { certificateApiView } from './certificate-view';

export const revokeCertificate = defineOperation({
  name: 'revokeCertificate',
  title: 'Revoke a certificate',
  description:
    'Revokes a certificate: it is kept, and its verification page says it was revoked. Revoking it again changes nothing. A new one of the kind may then be issued. Needs certificates:write.',
  scope: 'certificates:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  activity: { resourceType: 'certificate', resourceId: (_input, out) => out.certificateId },
  problems: ['notFound'],
  ifMatch: {
    hold: heldRow('certificates', (input) => input.certificateId),
    async current(ctx, input) {
      return certificateApiView(ctx, await loadCertificate(ctx, input.eventId, input.certificateId));
    },
  },
  input: v.object({ eventId: uuid('The event id.'), certificateId: uuid('The certificate id.') }),
  output: v.object({ certificateId: uuid('The certificate revoked.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const certificate = await loadCertificate(ctx, event.id, input.certificateId);
    if (certificate.revoked_utc === null) {
      const stamp = await changedNow(ctx);
      await ctx.db
        .updateTable('certificates')
        .set({ ...stamp, revoked_utc: stamp.updated_utc })
        .where('id', '=', certificate.id)
        .where('revoked_utc', 'is', null)
        .execute();
    }
    return { certificateId: certificate.id, deleted: true as const };
  },
});
