import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import AboutPage from './AboutPage';
import PrivacyPage from './PrivacyPage';
import TermsPage from './TermsPage';

const renderPage = (Page: () => React.JSX.Element) =>
  render(
    <MemoryRouter>
      <Page />
    </MemoryRouter>,
  );

describe('static pages', () => {
  it.each([
    ['About', AboutPage, 'About FrameText'],
    ['Terms', TermsPage, 'Terms of Service'],
    ['Privacy', PrivacyPage, 'Privacy Policy'],
  ])('%s has its own h1', (_name, Page, title) => {
    renderPage(Page);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(title);
  });

  it('states the 30-day deletion, the cloud OCR processor and every key kept in the browser', () => {
    renderPage(PrivacyPage);
    const text = document.body.textContent ?? '';
    expect(text).toMatch(/deleted 30 days after upload, unless you delete them sooner/);
    expect(text).toContain('Google Cloud Vision');
    for (const key of ['theme', 'frametext.session', 'got_started', 'ViewedHowTo']) expect(screen.getByText(key, { selector: 'code' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /@/ })).toHaveAttribute('href', expect.stringMatching(/^mailto:/));
  });
});
