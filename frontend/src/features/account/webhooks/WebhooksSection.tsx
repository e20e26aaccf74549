import { useId, useState, type FormEvent } from 'react';
import { MAX_WEBHOOKS_PER_USER, type Webhook, type WebhookDelivery } from '@frametext/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { errorMessage } from '../../../lib/api';
import { useCreateWebhookMutation, useDeleteWebhookMutation, useGetWebhooksQuery, useSendTestEventMutation } from './api';
import './webhooks.css';

/** While a delivery is on its way, the list asks again this often. */
const PENDING_POLL_MS = 3000;

const EVENT_LABELS: Record<WebhookDelivery['eventType'], string> = {
  'upload.processed': 'Upload processed',
  'upload.failed': 'Upload failed',
  'webhook.test': 'Test event',
};

function deliveryBadge(d: WebhookDelivery): { label: string; tone: string } {
  if (d.status === 'delivered') return { label: 'Delivered', tone: 'success' };
  if (d.status === 'failed') return { label: 'Gave up', tone: 'danger' };
  return d.attempts === 0 ? { label: 'Sending', tone: 'info' } : { label: 'Retrying', tone: 'warning' };
}

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : '';
}

function answerOf(d: WebhookDelivery): string {
  if (d.attempts === 0) return 'Not sent yet';
  const tries = d.attempts === 1 ? '1 attempt' : `${d.attempts} attempts`;
  const answer = d.responseStatus != null ? `HTTP ${d.responseStatus}` : 'No answer';
  return `${answer} · ${tries}${d.durationMs != null ? ` · ${d.durationMs} ms` : ''}`;
}

/** The secret of a webhook just added: shown once, with a way to copy it. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <div className="alert alert--success stack stack--sm" role="status">
      <label htmlFor={id}>
        <strong>Your signing secret.</strong> Copy it now: it is shown only this once. Use it to check the FrameText-Signature header of each event.
      </label>
      <input id={id} className="input webhooks__secret" value={secret} readOnly onFocus={(e) => e.currentTarget.select()} />
      <div className="cluster">
        <button
          type="button"
          className="btn btn--secondary btn--sm"
          onClick={() => void navigator.clipboard?.writeText(secret).then(() => setCopied(true), () => setCopied(false))}
        >
          {copied ? 'Copied' : 'Copy secret'}
        </button>
        <button type="button" className="btn btn--ghost btn--sm" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

function WebhookItem({ webhook, onDelete }: { webhook: Webhook; onDelete: (w: Webhook) => void }) {
  const [sendTest, test] = useSendTestEventMutation();
  return (
    <li className="webhooks__item">
      <span className="webhooks__url">{webhook.url}</span>
      <div className="cluster">
        <button type="button" className="btn btn--secondary btn--sm" disabled={test.isLoading} onClick={() => void sendTest(webhook.id)}>
          Send test event
        </button>
        <button type="button" className="btn btn--ghost btn--sm" aria-label={`Delete webhook ${webhook.url}`} onClick={() => onDelete(webhook)}>
          Delete
        </button>
      </div>
      {test.isError && (
        <p className="alert alert--danger" role="alert">
          {errorMessage(test.error, 'The test event could not be queued. Please try again.')}
        </p>
      )}
    </li>
  );
}

/**
 * Webhooks on the Account page: add an HTTPS URL (its signing secret is shown once), list and delete them, send a test
 * event, and see the recent deliveries with the receiver's answer. docs/webhooks.md has what a receiver gets.
 */
export function WebhooksSection() {
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [pollingInterval, setPollingInterval] = useState(0);
  const list = useGetWebhooksQuery(undefined, { pollingInterval });
  const [create, creation] = useCreateWebhookMutation();
  const [remove, removal] = useDeleteWebhookMutation();
  const urlId = useId();
  const errorId = useId();

  const webhooks = list.data?.webhooks ?? [];
  const deliveries = list.data?.deliveries ?? [];
  const byId = new Map(webhooks.map((w) => [w.id, w.url]));
  const pending = deliveries.some((d) => d.status === 'pending');
  if ((pending ? PENDING_POLL_MS : 0) !== pollingInterval) setPollingInterval(pending ? PENDING_POLL_MS : 0);
  const full = webhooks.length >= MAX_WEBHOOKS_PER_USER;

  const onAdd = async (e: FormEvent) => {
    e.preventDefault();
    const answer = await create(url.trim());
    if ('data' in answer && answer.data) {
      setSecret(answer.data.secret);
      setUrl('');
    }
  };

  const onConfirmDelete = async () => {
    if (!deleting) return;
    const answer = await remove(deleting.id);
    if (!('error' in answer)) setDeleting(null);
  };

  return (
    <section className="card stack webhooks" aria-labelledby="account-webhooks">
      <h2 id="account-webhooks" className="card__title">
        Webhooks
      </h2>
      <p className="muted small">
        When one of your uploads is processed or fails, we POST a signed event to each URL below, and try again for a day if it does not answer with
        a 2xx. Up to {MAX_WEBHOOKS_PER_USER} URLs.
      </p>

      {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}

      <form className="stack stack--sm" onSubmit={(e) => void onAdd(e)} noValidate>
        <div className="field">
          <label htmlFor={urlId}>Endpoint URL</label>
          <div className="webhooks__add">
            <input
              id={urlId}
              className="input"
              type="url"
              inputMode="url"
              placeholder="https://example.com/frametext-events"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              aria-invalid={creation.isError || undefined}
              aria-describedby={creation.isError ? errorId : undefined}
              disabled={full}
            />
            <button type="submit" className="btn btn--primary" disabled={creation.isLoading || full || url.trim() === ''}>
              Add webhook
            </button>
          </div>
        </div>
        {creation.isError && (
          <p id={errorId} className="alert alert--danger" role="alert">
            {errorMessage(creation.error, 'The webhook could not be added. Please try again.')}
          </p>
        )}
        {full && <p className="muted small">You have {MAX_WEBHOOKS_PER_USER} webhooks; delete one to add another.</p>}
      </form>

      {list.isError ? (
        <p className="alert alert--danger" role="alert">
          {errorMessage(list.error, 'Your webhooks could not be loaded. Please reload the page.')}
        </p>
      ) : (
        webhooks.length > 0 && (
          <ul className="webhooks__list" aria-label="Your webhooks">
            {webhooks.map((w) => (
              <WebhookItem key={w.id} webhook={w} onDelete={setDeleting} />
            ))}
          </ul>
        )
      )}

      {deliveries.length > 0 && (
        <>
          <h3 className="webhooks__heading">Recent deliveries</h3>
          <ul className="webhooks__deliveries" aria-label="Recent deliveries">
            {deliveries.map((d) => {
              const badge = deliveryBadge(d);
              return (
                <li key={d.id} className="webhooks__delivery">
                  <div className="cluster cluster--between">
                    <strong>{EVENT_LABELS[d.eventType]}</strong>
                    <span className={`badge badge--${badge.tone}`}>{badge.label}</span>
                  </div>
                  <span className="webhooks__url muted small">{byId.get(d.webhookId)}</span>
                  <span className="small">
                    {answerOf(d)}
                    {d.lastAttemptAt && <> · {when(d.lastAttemptAt)}</>}
                  </span>
                  {d.status === 'pending' && d.attempts > 0 && d.nextAttemptAt && <span className="muted small">Next try {when(d.nextAttemptAt)}</span>}
                  {d.responseExcerpt && d.status !== 'delivered' && <code className="webhooks__excerpt">{d.responseExcerpt}</code>}
                </li>
              );
            })}
          </ul>
        </>
      )}

      {deleting && (
        <ConfirmDialog title="Delete this webhook?" confirmLabel="Delete webhook" danger busy={removal.isLoading} onConfirm={() => void onConfirmDelete()} onCancel={() => setDeleting(null)}>
          <p>
            Events stop going to <span className="webhooks__url">{deleting.url}</span>, including any still waiting to be sent.
          </p>
          {removal.isError && (
            <p className="alert alert--danger" role="alert">
              {errorMessage(removal.error, 'The webhook could not be deleted. Please try again.')}
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
