/* The Presentation view's kept work (issue 16): in @frametext/text-analysis (slides-text.ts), shared with the server's export. */
export { presentationWork, restorePresentationWork } from '@frametext/text-analysis';
