/** The Local engine's file addresses, from build/ocrAssets.ts. */
declare module 'virtual:ocr-assets' {
  export const workerPath: string;
  export const corePath: string;
  export const langPath: string;
}
