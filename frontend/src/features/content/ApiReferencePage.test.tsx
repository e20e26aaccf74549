import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_OPERATIONS, buildOpenApiDocument } from '@frametext/contracts/openapi';
import { renderApp } from '../../components/testUtils';
import { apiError, fakeGateway, json } from '../../testing/fakeGateway';
import ApiReferencePage from './ApiReferencePage';

// The real description, built from the contracts as the gateway builds it; the upload calls need a token here.
const SIGNED_IN = new Set(['POST /api/getUploadURL', 'GET /api/checkUploadStatus/:id']);
const doc = buildOpenApiDocument(Object.keys(API_OPERATIONS).map((key) => ({ key, signedIn: SIGNED_IN.has(key) })));

const openPage = () => renderApp('/docs/api', { pages: [{ path: '/docs/api', element: <ApiReferencePage /> }] });
/** One operation's card, by its operationId (role queries over the whole page are slow in jsdom). */
async function operation(id: string) {
  await screen.findByRole('heading', { level: 1, name: 'API reference' });
  const card = await vi.waitFor(() => document.getElementById(id) ?? Promise.reject(new Error(`no ${id}`)));
  return within(card);
}

afterEach(() => vi.unstubAllGlobals());

// The real description makes a long page: rendering it in jsdom takes seconds on a busy machine.
describe('the API reference page', { timeout: 20_000 }, () => {
  it('lists every operation of the description, with a link to the document itself', async () => {
    fakeGateway({ 'GET /api/openapi.json': () => json(doc) });
    openPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'API reference' })).toBeInTheDocument();
    const contents = await screen.findByRole('navigation', { name: 'Endpoints' });
    expect(contents.querySelectorAll('a[href^="#"]')).toHaveLength(Object.keys(API_OPERATIONS).length);
    expect(document.querySelectorAll('article.api-op')).toHaveLength(Object.keys(API_OPERATIONS).length);
    expect(screen.getByRole('link', { name: '/api/openapi.json' })).toHaveAttribute('href', '/api/openapi.json');
    // Where to get a token, and the command-line client and the scripting guide.
    expect(screen.getByRole('link', { name: 'Account page' })).toHaveAttribute('href', '/account');
    expect(screen.getByText('frametext upload video.mp4 --mode numerical --interval 1 --wait --export csv')).toBeInTheDocument();
    expect(screen.getByText('docs/scripting.md')).toBeInTheDocument();
  });

  it("shows an upload's token, its request forms (photos by capture times among them), an example and its answers", async () => {
    fakeGateway({ 'GET /api/openapi.json': () => json(doc) });
    openPage();
    const upload = await operation('postGetUploadURL');
    expect(upload.getByText('Needs a token: Authorization: Bearer <token>.')).toBeInTheDocument();
    await userEvent.click(upload.getByText('Fields'));
    expect(upload.getByText("Photos by their capture times (the spec's request: no files list)")).toBeInTheDocument();
    expect(upload.getAllByText('isVideo').length).toBeGreaterThanOrEqual(4);
    expect(upload.getByText(/"isVideo": false/)).toBeInTheDocument();
    const statuses = upload.getAllByRole('listitem').map((li) => li.querySelector('.api-status')?.textContent).filter(Boolean);
    expect(statuses).toEqual(['200', '400', '402', '403', '429', '503', 'Other']);

    const config = await operation('getConfig');
    expect(config.getByText('Public: no token needed.')).toBeInTheDocument();
  });

  it('opens an answer into its nested fields, with types and limits a person can read', async () => {
    fakeGateway({ 'GET /api/openapi.json': () => json(doc) });
    openPage();
    const status = await operation('getCheckUploadStatusById');
    const parameters = within(status.getByRole('heading', { name: 'Parameters' }).nextElementSibling as HTMLElement);
    expect(parameters.getByText('id')).toBeInTheDocument();
    expect(parameters.getByText('string, 1 to 128 characters')).toBeInTheDocument();
    expect(status.queryByText('uploadID')).toBeNull();
    await userEvent.click(status.getByText('UploadStatusResponse'));
    expect(status.getByText('uploadID')).toBeInTheDocument();
    expect(status.getByText('one of "uploading", "downloading", "uploaded", "processing", "processed", "failed"')).toBeInTheDocument();
    expect(status.getByText('whole number, at least 0, or null')).toBeInTheDocument();
  });

  it('says when the description cannot be loaded, and tries again', async () => {
    const { calls } = fakeGateway({ 'GET /api/openapi.json': () => apiError(503, 'unavailable', 'Try again in a moment.') });
    openPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('The API description could not be loaded.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(calls.filter((c) => c.path === '/api/openapi.json').length).toBeGreaterThanOrEqual(2));
  });
});
