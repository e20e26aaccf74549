import type { CreateWebhookResponse, ListWebhooksResponse, WebhookDelivery } from '@frametext/contracts';
import { api } from '../../../lib/api';

/** The signed-in person's webhooks (results' /api/webhooks), with their recent deliveries. */
export const webhooksApi = api.enhanceEndpoints({ addTagTypes: ['Webhooks'] }).injectEndpoints({
  endpoints: (build) => ({
    getWebhooks: build.query<ListWebhooksResponse, void>({
      query: () => 'webhooks',
      providesTags: ['Webhooks'],
    }),
    /** Registers a URL; the answer holds the signing secret, shown this once. */
    createWebhook: build.mutation<CreateWebhookResponse, string>({
      query: (url) => ({ url: 'webhooks', method: 'POST', body: { url } }),
      invalidatesTags: ['Webhooks'],
    }),
    deleteWebhook: build.mutation<null, string>({
      query: (id) => ({ url: `webhooks/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Webhooks'],
    }),
    sendTestEvent: build.mutation<WebhookDelivery, string>({
      query: (id) => ({ url: `webhooks/${encodeURIComponent(id)}/test`, method: 'POST', body: {} }),
      invalidatesTags: ['Webhooks'],
    }),
  }),
});

export const { useGetWebhooksQuery, useCreateWebhookMutation, useDeleteWebhookMutation, useSendTestEventMutation } = webhooksApi;
