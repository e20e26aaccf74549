/* The Scroll view's kept work (issue 16): in @frametext/text-analysis (scroll-detection.ts), shared with the server's export. */
export { restoreScrollWork, scrollWork, type RestoredScroll } from '@frametext/text-analysis';
