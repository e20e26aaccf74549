import { render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../../lib/store';
import BlogIndexPage from './BlogIndexPage';
import BlogPostPage from './BlogPostPage';

const SLUGS = [
  'ev-charge-curve-analysis',
  'spacex-launch-data-capture',
  'presentation-text-extraction',
  'caption-extraction',
  'transcription-vs-extraction',
  'scroll-list-extraction',
];

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/blog', element: <BlogIndexPage /> },
      { path: '/blog/:slug', element: <BlogPostPage /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <Provider store={makeStore()}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return router;
}

describe('blog', () => {
  it('lists the six posts, each linking to its slug with a subtitle, a date and a picture', () => {
    renderAt('/blog');
    expect(screen.getByRole('heading', { level: 1, name: 'Blog' })).toBeInTheDocument();
    const cards = screen.getAllByRole('listitem');
    expect(cards).toHaveLength(6);
    const hrefs = cards.map((card) => within(card).getByRole('link').getAttribute('href'));
    expect(hrefs.sort()).toEqual(SLUGS.map((slug) => `/blog/${slug}`).sort());
    for (const card of cards) {
      expect(within(card).getByRole('img')).toHaveAccessibleName();
      expect(card.querySelector('time')?.getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it.each(SLUGS)('renders the post at /blog/%s with its title, picture and article', (slug) => {
    renderAt(`/blog/${slug}`);
    const title = screen.getByRole('heading', { level: 1 });
    expect(title.textContent).not.toBe('');
    expect(screen.getByRole('img')).toHaveAccessibleName();
    const words = screen.getByRole('article').textContent?.split(/\s+/).length ?? 0;
    expect(words).toBeGreaterThan(600);
    expect(screen.queryByText('Post not found')).not.toBeInTheDocument();
  });

  it('says a post is not found at an unknown slug, with a way back to the blog', async () => {
    const router = renderAt('/blog/no-such-post');
    expect(screen.getByRole('heading', { level: 1, name: 'Post not found' })).toBeInTheDocument();
    screen.getByRole('link', { name: 'Back to the blog' }).click();
    await screen.findByRole('heading', { level: 1, name: 'Blog' });
    expect(router.state.location.pathname).toBe('/blog');
  });

  it('turns [words](/path) in a post into a link inside the app', () => {
    renderAt('/blog/transcription-vs-extraction');
    expect(screen.getByRole('link', { name: 'Region mode' })).toHaveAttribute('href', '/blog/caption-extraction');
  });
});
