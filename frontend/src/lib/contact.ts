/** Where people reach a person at FrameText: support, privacy questions and custom plans. */
export const SUPPORT_EMAIL = 'support@frametext.app';

/** The spec's custom-plan request: an e-mail with this subject. */
export const ENTERPRISE_SUBJECT = 'Enterprise Account Request';

export const enterpriseMailto = `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(ENTERPRISE_SUBJECT)}`;
