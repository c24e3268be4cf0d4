// The flags of orders create and update: registered with the command tree, without the code
// (and the schemas) that validates and sends the order.
import type { Command } from 'commander';
import type { BodyFlags } from '../shared/body.js';
import { addBodyOptions } from '../shared/crud.js';
import { addExamples } from '../shared/command.js';
import { collect, enumOption } from '../shared/flags.js';
import { ASSESSMENT_STATUSES, ORDER_TYPES } from '../../api/enums.js';
import { addKindOptions } from './filters.js';

export interface OrderFieldFlags extends BodyFlags {
  purchase?: boolean;
  sale?: boolean;
  batch?: boolean;
  externalId?: string;
  type?: string;
  orderCreatedAt?: string;
  orderArrivalAt?: string;
  buyerExternalId?: string;
  sellerExternalId?: string;
  buyerStatus?: string;
  sellerStatus?: string;
  assessmentStatus?: string;
  valueChain?: string;
  buyerCompanyId?: string;
  sellerCompanyId?: string;
  companyId?: string;
  borderCrossCountryCode?: string;
  signedOffAt?: string;
  tag?: string[];
  sendInformationRequest?: boolean;
  item?: string[];
}

export function addOrderFields(cmd: Command, verb: string): Command {
  addBodyOptions(
    addKindOptions(cmd, verb)
      .option('--external-id <id>', 'your identifier of the order (required on create)')
      .addOption(enumOption('--type <type>', (v) => `${v.slice(0, -1).join(', ')} or ${v.at(-1)} (required on create)`, ORDER_TYPES))
      .option('--order-created-at <date>', 'order date YYYY-MM-DD (required on create)')
      .option('--order-arrival-at <date>', 'arrival date YYYY-MM-DD')
      .option('--buyer-external-id <id>', "the buyer's identifier of the order")
      .option('--seller-external-id <id>', "the seller's identifier of the order")
      .option('--buyer-status <status>', 'buyer_company_status (purchase, batch)')
      .option('--seller-status <status>', 'seller_company_status (sale, batch)')
      .addOption(enumOption('--assessment-status <status>', (v) => `${v.slice(0, -1).join(', ')} or ${v.at(-1)}`, ASSESSMENT_STATUSES))
      .option('--value-chain <id>', 'value chain id')
      .option('--buyer-company-id <id>', 'the buying company (sale, batch)')
      .option('--seller-company-id <id>', 'the selling company (purchase, batch)')
      .option('--company-id <id>', 'your company id (batch; required on create)')
      .option('--border-cross-country-code <code>', 'two-letter code of the country where the goods entered the EU')
      .option('--signed-off-at <datetime>', 'sign-off time (ISO 8601)')
      .option('--tag <tag>', 'a tag (repeatable; replaces the tags)', collect)
      .option('--send-information-request', 'ask the counterpart for traceability information (purchase, sale)')
      .option(
        '--item <spec>',
        'an item: product=ID,volume=N,unit=kg[,line=N,external-id=X,id=N] (repeatable; on update the list replaces the items: give id=N to keep an item)',
        collect,
      ),
  ).addHelpText(
    'after',
    `
Items: product= is the buyer's product on a purchase, the seller's on a sale and both on a batch;
buyer-product= and seller-product= name a side explicitly.`,
  );
  return addExamples(cmd, ORDER_EXAMPLES[verb] ?? []);
}

const ORDER_EXAMPLES: Record<string, string[]> = {
  create: [
    'sct orders create --purchase --type order --external-id PO-2026-0001 --order-created-at 2026-03-01 --item product=17,volume=2500,unit=kg',
    'sct orders create --purchase --file order.json',
  ],
  update: ['sct orders update 217 --purchase --tag eudr --tag q1', 'sct orders update 217 --purchase --order-arrival-at 2026-04-15'],
};
