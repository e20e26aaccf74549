/** The spec's insufficient-credits sentence, wherever a cost exceeds the balance: "You have X credits but this operation requires Y." */
export const shortfallMessage = (have: number, need: number) => `You have ${have} credits but this operation requires ${need}.`;
