/* The Presentation view's text: in @frametext/text-analysis (slides-text.ts), shared with the server's export. */
export { frameLines, PRESENTATION_FILE, selectedSlidesFileName, selectedSlidesText } from '@frametext/text-analysis';
