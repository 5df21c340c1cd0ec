// The kind's name on its own, free of zod, for the `./browser` and `./call` entries.

/** `x.cccc.delivery_confirmation`: see delivery-confirmation.ts. */
export const DELIVERY_CONFIRMATION_KIND = 'x.cccc.delivery_confirmation';
