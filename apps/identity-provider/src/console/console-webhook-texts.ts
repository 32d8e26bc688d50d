import type { Locale } from '../views/locales/index.js';

/** The console's webhook section, in one language. */
export interface WebhookTexts {
  url: string;
  description: string;
  events: string;
  add: string;
  sendTest: string;
  rotateSecret: string;
  enable: string;
  disable: string;
  delete: string;
  enabled: string;
  disabledByDeveloper: string;
  disabledFailing: string;
  /** Before the time until which the previous secret still signs. */
  previousSecretUntil: string;
  deliveries: string;
  noDeliveries: string;
  none: string;
  retry: string;
  status: Record<'pending' | 'succeeded' | 'failed', string>;
  attempts: (n: number) => string;
  nextAttempt: string;
  /** Under a new secret: it is kept (encrypted, to sign with), but never shown again. */
  secretOnce: string;
}

const en: WebhookTexts = {
  url: 'Endpoint URL (https)',
  description: 'Description (optional)',
  events: 'Events',
  add: 'Add endpoint',
  sendTest: 'Send test event',
  rotateSecret: 'Rotate secret',
  enable: 'Enable',
  disable: 'Disable',
  delete: 'Delete',
  enabled: 'enabled',
  disabledByDeveloper: 'disabled',
  disabledFailing: 'disabled after five days of failed deliveries',
  previousSecretUntil: 'the previous secret also signs until',
  deliveries: 'Recent deliveries',
  noDeliveries: 'No deliveries yet.',
  none: 'No endpoints yet.',
  retry: 'Retry now',
  status: { pending: 'pending', succeeded: 'delivered', failed: 'failed' },
  attempts: (n) => (n === 1 ? '1 attempt' : `${n} attempts`),
  nextAttempt: 'next attempt',
  secretOnce:
    'This is shown once. Verify each delivery with it (any Standard Webhooks library, or the SDK’s verifyWebhook). After a rotation the old secret signs beside it for 24 hours.',
};

const de: WebhookTexts = {
  url: 'Endpunkt-URL (https)',
  description: 'Beschreibung (optional)',
  events: 'Ereignisse',
  add: 'Endpunkt hinzufügen',
  sendTest: 'Testereignis senden',
  rotateSecret: 'Geheimnis erneuern',
  enable: 'Aktivieren',
  disable: 'Deaktivieren',
  delete: 'Löschen',
  enabled: 'aktiv',
  disabledByDeveloper: 'deaktiviert',
  disabledFailing: 'nach fünf Tagen fehlgeschlagener Zustellungen deaktiviert',
  previousSecretUntil: 'das vorige Geheimnis signiert noch bis',
  deliveries: 'Letzte Zustellungen',
  noDeliveries: 'Noch keine Zustellungen.',
  none: 'Noch keine Endpunkte.',
  retry: 'Jetzt erneut senden',
  status: { pending: 'ausstehend', succeeded: 'zugestellt', failed: 'fehlgeschlagen' },
  attempts: (n) => (n === 1 ? '1 Versuch' : `${n} Versuche`),
  nextAttempt: 'nächster Versuch',
  secretOnce:
    'Es wird nur einmal angezeigt. Prüfen Sie damit jede Zustellung (jede Standard-Webhooks-Bibliothek oder verifyWebhook aus dem SDK). Nach einer Erneuerung signiert das alte Geheimnis noch 24 Stunden mit.',
};

const fr: WebhookTexts = {
  url: 'URL du point de terminaison (https)',
  description: 'Description (facultative)',
  events: 'Événements',
  add: 'Ajouter un point de terminaison',
  sendTest: 'Envoyer un événement de test',
  rotateSecret: 'Renouveler le secret',
  enable: 'Activer',
  disable: 'Désactiver',
  delete: 'Supprimer',
  enabled: 'actif',
  disabledByDeveloper: 'désactivé',
  disabledFailing: 'désactivé après cinq jours de livraisons en échec',
  previousSecretUntil: 'l’ancien secret signe aussi jusqu’au',
  deliveries: 'Livraisons récentes',
  noDeliveries: 'Aucune livraison pour l’instant.',
  none: 'Aucun point de terminaison pour l’instant.',
  retry: 'Réessayer maintenant',
  status: { pending: 'en attente', succeeded: 'livrée', failed: 'en échec' },
  attempts: (n) => (n === 1 ? '1 tentative' : `${n} tentatives`),
  nextAttempt: 'prochaine tentative',
  secretOnce:
    'Il n’est affiché qu’une fois. Vérifiez chaque livraison avec lui (toute bibliothèque Standard Webhooks, ou verifyWebhook du SDK). Après un renouvellement, l’ancien secret signe encore 24 heures.',
};

const TEXTS: Record<Locale, WebhookTexts> = { en, de, fr };

export const webhookTexts = (locale: Locale): WebhookTexts => TEXTS[locale];
