// Migrations listed in code rather than read from a folder, so they work the same under tsx and vitest.
import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './0001-foundation';
import * as sales from './0002-sales';
import * as doorsProgrammePasses from './0003-doors-programme-passes';
import * as dropUnreadScanIndex from './0004-drop-unread-scan-index';
import * as constraints from './0005-constraints';
import * as webhooks from './0006-webhooks';
import * as communities from './0007-communities';
import * as sponsors from './0008-sponsors';
import * as crew from './0009-crew';
import * as surveys from './0010-surveys';
import * as finance from './0011-finance';
import * as cfpSharekit from './0012-cfp-sharekit';
import * as importSources from './0013-import-sources';
import * as oauth from './0014-oauth';
import * as keyGeneration from './0015-key-generation';
import * as changeFeed from './0016-change-feed';
import * as severalProcesses from './0017-several-processes';
import * as anyHookClient from './0018-any-hook-client';
import * as feedbackGivenLive from './0021-feedback-given-live';
import * as oneMembershipPerEmail from './0022-one-membership-per-email';
import * as shareLinkChanges from './0023-share-link-changes';
import * as cfpWrites from './0024-cfp-writes';
import * as paidOrdersInvoicing from './0025-paid-orders-invoicing';
import * as logisticsWrites from './0026-logistics-writes';
import * as certificatesContentBudget from './0027-certificates-content-budget';
import * as retireAndSwitchOff from './0028-retire-and-switch-off';
import * as ticketsAndSignUp from './0029-tickets-and-sign-up';
import * as mailMessages from './0030-mail-messages';
import * as deploymentKeys from './0031-deployment-keys';
import * as attendeeSearch from './0032-attendee-search';
import * as eventTotals from './0033-event-totals';
import * as indexesForScale from './0034-indexes-for-scale';
import * as scanInOneStatement from './0035-scan-in-one-statement';
import * as doorInsideSlots from './0036-door-inside-slots';
import * as rateWindowsUnlogged from './0037-rate-windows-unlogged';
import * as ticketsCountedPerStatement from './0038-tickets-counted-per-statement';
import * as attendeeSearchBeside from './0039-attendee-search-beside';
import * as outboxWaiting from './0040-outbox-waiting';
import * as searchTextCreated from './0041-search-text-created';
import * as attendeeEmailUnindexed from './0042-attendee-email-unindexed';
import * as attendeeAddresses from './0043-attendee-addresses';
import * as searchPairsUnsorted from './0044-search-pairs-unsorted';
import * as checkInIdsInFeedOrder from './0045-check-in-ids-in-feed-order';
import * as orderPaymentsAndDiscounts from './0046-order-payments-and-discounts';
import * as stripeConnection from './0047-stripe-connection';
import * as invoiceMail from './0048-invoice-mail';
import * as cardCheckouts from './0049-card-checkouts';
import * as orderApproval from './0050-order-approval';
import * as waitingList from './0051-waiting-list';

/** Every migration by name; Kysely runs them in the order of their names. */
export const allMigrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-sales': sales,
  '0003-doors-programme-passes': doorsProgrammePasses,
  '0004-drop-unread-scan-index': dropUnreadScanIndex,
  '0005-constraints': constraints,
  '0006-webhooks': webhooks,
  '0007-communities': communities,
  '0008-sponsors': sponsors,
  '0009-crew': crew,
  '0010-surveys': surveys,
  '0011-finance': finance,
  '0012-cfp-sharekit': cfpSharekit,
  '0013-import-sources': importSources,
  '0014-oauth': oauth,
  '0015-key-generation': keyGeneration,
  '0016-change-feed': changeFeed,
  '0017-several-processes': severalProcesses,
  '0018-any-hook-client': anyHookClient,
  '0021-feedback-given-live': feedbackGivenLive,
  '0022-one-membership-per-email': oneMembershipPerEmail,
  '0023-share-link-changes': shareLinkChanges,
  '0026-logistics-writes': logisticsWrites,
  '0024-cfp-writes': cfpWrites,
  '0025-paid-orders-invoicing': paidOrdersInvoicing,
  '0027-certificates-content-budget': certificatesContentBudget,
  '0028-retire-and-switch-off': retireAndSwitchOff,
  '0029-tickets-and-sign-up': ticketsAndSignUp,
  '0030-mail-messages': mailMessages,
  '0031-deployment-keys': deploymentKeys,
  '0032-attendee-search': attendeeSearch,
  '0033-event-totals': eventTotals,
  '0034-indexes-for-scale': indexesForScale,
  '0035-scan-in-one-statement': scanInOneStatement,
  '0036-door-inside-slots': doorInsideSlots,
  '0037-rate-windows-unlogged': rateWindowsUnlogged,
  '0038-tickets-counted-per-statement': ticketsCountedPerStatement,
  '0039-attendee-search-beside': attendeeSearchBeside,
  '0040-outbox-waiting': outboxWaiting,
  '0041-search-text-created': searchTextCreated,
  '0042-attendee-email-unindexed': attendeeEmailUnindexed,
  '0043-attendee-addresses': attendeeAddresses,
  '0044-search-pairs-unsorted': searchPairsUnsorted,
  '0045-check-in-ids-in-feed-order': checkInIdsInFeedOrder,
  '0046-order-payments-and-discounts': orderPaymentsAndDiscounts,
  '0047-stripe-connection': stripeConnection,
  '0048-invoice-mail': invoiceMail,
  '0049-card-checkouts': cardCheckouts,
  '0050-order-approval': orderApproval,
  '0051-waiting-list': waitingList,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => allMigrations,
};
