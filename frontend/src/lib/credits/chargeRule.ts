/** What credits pay for, said the same way on the pricing section and after an upload that found no text. */
export const CHARGE_RULE =
  'You pay for the frames that are read, whether or not they hold text: no credit is taken for work not done, and no work is done without its credit.';
