import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { repoRoot, SERVICES, type Service } from '@svc/testkit';
import { parse } from 'yaml';
import { CONFIG, read, unknownVariables, yamlDocuments } from './manifests.js';

type Manifest = { kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string>; stringData?: Record<string, string> };

const kustomization = parse(read('infra/k8s/kustomization.yaml')) as { resources: string[] };
const all: Manifest[] = kustomization.resources.flatMap((r) => yamlDocuments<Manifest>(`infra/k8s/${r}`));
const find = (kind: string, name: string) => all.find((m) => m.kind === kind && m.metadata.name === name);
// The Secret templates: one per service, one for the migration Job.
const secrets = yamlDocuments<Manifest>('infra/k8s/secret.example.yaml');
const secretNamed = (name: string) => secrets.find((s) => s.metadata.name === name);

interface EnvVar {
  name: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}

describe('infra/k8s', () => {
  it('lists only files that exist, and keeps the secret out of the repository', () => {
    for (const r of kustomization.resources) expect(existsSync(`${repoRoot}infra/k8s/${r}`)).toBe(true);
    expect(kustomization.resources).not.toContain('secret.example.yaml');
    expect(all.filter((m) => m.kind === 'Secret')).toEqual([]);
  });

  describe.each(SERVICES)('%s', (service: Service) => {
    const deployment = find('Deployment', service)!;
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    const port = container.ports.find((p: { name: string }) => p.name === 'http').containerPort;

    it('runs as a non-root user on a read-only filesystem, without privileges', () => {
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } });
      expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
      expect(pod.automountServiceAccountToken).toBe(false);
    });

    it('is probed for readiness on /ready and liveness on /health, and asks for resources', () => {
      expect(container.readinessProbe.httpGet).toEqual({ path: '/ready', port: 'http' });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/health', port: 'http' });
      expect(container.startupProbe.httpGet).toEqual({ path: '/health', port: 'http' });
      expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      expect(container.resources.limits.memory).toEqual(expect.any(String));
      expect(deployment.spec.strategy.rollingUpdate).toEqual({ maxUnavailable: 0, maxSurge: 1 });
    });

    it('is reached through its Service, scaled by its autoscaler and protected by its disruption budget', () => {
      const labels = deployment.spec.template.metadata.labels;
      expect(deployment.spec.selector.matchLabels).toEqual(labels);
      const svc = find('Service', service)!;
      expect(svc.spec.selector).toEqual(labels);
      expect(svc.spec.ports[0].targetPort).toBe('http');
      const hpa = find('HorizontalPodAutoscaler', service)!;
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: service });
      expect(hpa.spec.minReplicas).toBe(deployment.spec.replicas);
      expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
      expect(find('PodDisruptionBudget', service)!.spec).toEqual({ maxUnavailable: 1, selector: { matchLabels: labels } });
      expect(deployment.spec.template.metadata.annotations).toMatchObject({ 'prometheus.io/port': String(port), 'prometheus.io/path': '/metrics' });
    });

    it('gets only variables it reads, from its ConfigMap and the secret, which its configuration accepts', () => {
      const configMap = find('ConfigMap', container.envFrom[0].configMapRef.name)!;
      expect(Number(configMap.data!.PORT)).toBe(port);
      const fromSecret = Object.fromEntries(
        (container.env as EnvVar[]).map((e) => {
          const ref = e.valueFrom!.secretKeyRef!;
          // The service's own Secret: it holds nothing another service reads.
          expect(ref.name).toBe(`${service}-secrets`);
          const secret = secretNamed(ref.name)!;
          expect(Object.keys(secret.stringData!)).toContain(ref.key);
          return [e.name, secret.stringData![ref.key]!];
        }),
      );
      const env: Record<string, string> = { ...configMap.data, ...fromSecret };
      expect(unknownVariables(service, env)).toEqual([]);
      // The template's CHANGE-ME secrets are refused: an operator must generate each one.
      const placeholders = ['IDP_SECRET', 'IDP_SIGNING_KEY_KEK', 'ISSUER_SIGNING_KEY_KEK', 'PAIRWISE_SECRET'].filter((k) => env[k]?.startsWith('CHANGE-ME-TO'));
      if (placeholders.length) expect(() => CONFIG[service].load(env)).toThrow(/placeholder/);
      const generated = Object.fromEntries(placeholders.map((k) => [k, randomBytes(36).toString('base64')]));
      expect(() => CONFIG[service].load({ ...env, ...generated })).not.toThrow();
    });
  });

  it('gives each signing service a key-encryption key of its own, and each service a database login of its own', () => {
    const envOf = (service: Service) => (find('Deployment', service)!.spec.template.spec.containers[0].env as EnvVar[]).map((e) => e.name);
    expect(envOf('identity-provider')).toContain('IDP_SIGNING_KEY_KEK');
    expect(envOf('credential-issuer')).toContain('ISSUER_SIGNING_KEY_KEK');
    for (const service of SERVICES) {
      const own = envOf(service).filter((name) => name.endsWith('SIGNING_KEY_KEK'));
      expect([service, own]).toEqual([
        service,
        { 'identity-provider': ['IDP_SIGNING_KEY_KEK'], 'credential-issuer': ['ISSUER_SIGNING_KEY_KEK'], 'wallet-verify': [] }[service],
      ]);
    }
    const users = SERVICES.map((service) => new URL(secretNamed(`${service}-secrets`)!.stringData!.DATABASE_URL!).username);
    expect(users).toEqual(['svc_identity_provider', 'svc_wallet_verify', 'svc_credential_issuer']);
    expect(new URL(secretNamed('svc-migrate-secrets')!.stringData!.DATABASE_URL!).username).toBe('svc');
  });

  it('limits failing-open wallet verification per replica by the autoscaler’s ceiling', () => {
    expect(Number(find('ConfigMap', 'wallet-verify-config')!.data!.RATE_LIMIT_REPLICAS)).toBe(
      find('HorizontalPodAutoscaler', 'wallet-verify')!.spec.maxReplicas,
    );
  });

  it('migrates with a Job that runs the migration script with the database URL from the secret', () => {
    const job = find('Job', 'svc-migrate')!;
    const container = job.spec.template.spec.containers[0];
    expect(container.command).toEqual(['node', 'packages/db/dist/migrate-cli.js']);
    expect(existsSync(`${repoRoot}packages/db/src/migrate-cli.ts`)).toBe(true);
    // The owner's login migrates, then makes the services' logins with these passwords.
    const fromMigrateSecret = (name: string) => ({ name, valueFrom: { secretKeyRef: { name: 'svc-migrate-secrets', key: name } } });
    expect(container.env).toEqual(
      ['DATABASE_URL', 'IDENTITY_PROVIDER_DB_PASSWORD', 'WALLET_VERIFY_DB_PASSWORD', 'CREDENTIAL_ISSUER_DB_PASSWORD'].map(fromMigrateSecret),
    );
    for (const { name } of container.env) expect(Object.keys(secretNamed('svc-migrate-secrets')!.stringData!)).toContain(name);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    expect(job.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
  });

  it('links the credential issuer to the identity provider with a Job, on the ids and secrets both services are given', () => {
    const config = (name: string) => find('ConfigMap', name)!.data!;
    const [idp, issuer] = [config('identity-provider-config'), config('credential-issuer-config')];
    // Each names the other by its public URL, and both the issuer's client.
    expect(idp.CREDENTIAL_ISSUER_URL).toBe(issuer.PUBLIC_URL);
    expect(issuer.AUTHORIZATION_SERVER_URL).toBe(idp.PUBLIC_URL);
    expect(idp.CREDENTIAL_ISSUER_CLIENT_ID).toBe(issuer.AUTHORIZATION_SERVER_CLIENT_ID);
    const job = find('Job', 'svc-link-issuer')!;
    const container = job.spec.template.spec.containers[0];
    expect(container.image).toBe(find('Deployment', 'identity-provider')!.spec.template.spec.containers[0].image);
    expect(container.command.slice(0, 3)).toEqual(['node', 'packages/admin/dist/cli.js', 'issuer:link']);
    expect(existsSync(`${repoRoot}packages/admin/src/cli.ts`)).toBe(true);
    type Ref = { name: string; key: string };
    const env = Object.fromEntries(
      (container.env as { name: string; valueFrom: { secretKeyRef?: Ref; configMapKeyRef?: Ref } }[]).map((e) => {
        const secret = e.valueFrom.secretKeyRef;
        const ref = secret ?? e.valueFrom.configMapKeyRef!;
        const value = secret ? secretNamed(ref.name)?.stringData?.[ref.key] : find('ConfigMap', ref.name)?.data?.[ref.key];
        expect([e.name, value]).toEqual([e.name, expect.any(String)]);
        return [e.name, { ref, value }];
      }),
    );
    // As the owner (as svc-migrate), sealing the webhook secret with the identity provider's KEK,
    // making the credential issuer's own secrets the link's.
    expect(env.DATABASE_URL!.ref.name).toBe('svc-migrate-secrets');
    expect(env.IDP_SIGNING_KEY_KEK!.ref.name).toBe('identity-provider-secrets');
    const issuerEnv = find('Deployment', 'credential-issuer')!.spec.template.spec.containers[0].env as EnvVar[];
    for (const name of ['AUTHORIZATION_SERVER_CLIENT_SECRET', 'AUTHORIZATION_SERVER_WEBHOOK_SECRET']) {
      expect(env[name]!.ref).toEqual({ name: 'credential-issuer-secrets', key: name });
      expect(issuerEnv.find((e) => e.name === name)!.valueFrom!.secretKeyRef).toEqual({ name: 'credential-issuer-secrets', key: name });
    }
    const given = (variable: string) => container.command[container.command.indexOf(variable) + 1];
    expect(given('--issuer-url')).toBe('$(CREDENTIAL_ISSUER_URL)');
    expect(env.CREDENTIAL_ISSUER_URL!.value).toBe(idp.CREDENTIAL_ISSUER_URL);
    for (const [flag, name] of [
      ['--idp-url', 'AUTHORIZATION_SERVER_URL'],
      ['--client-id', 'AUTHORIZATION_SERVER_CLIENT_ID'],
      ['--org', 'WALLET_ORGANIZATION_ID'],
    ] as const) {
      expect(given(flag)).toBe(`$(${name})`);
      expect(env[name]!.value).toBe(issuer[name]);
    }
    expect(container.command).toEqual(expect.arrayContaining(['--rotate-client-secret', '--rotate-webhook-secret']));
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
  });

  describe('the identity provider’s sandbox', () => {
    const deployment = find('Deployment', 'identity-provider-sandbox')!;
    const production = find('Deployment', 'identity-provider')!;
    const container = deployment.spec.template.spec.containers[0];
    const config = find('ConfigMap', 'identity-provider-sandbox-config')!.data!;
    const productionConfig = find('ConfigMap', 'identity-provider-config')!.data!;

    it('runs the identity provider’s image as the sandbox, hardened and probed as production is, on its own port and public URL', () => {
      expect(container.image).toBe(production.spec.template.spec.containers[0].image);
      expect(deployment.spec.template.spec.securityContext).toEqual(production.spec.template.spec.securityContext);
      expect(container.securityContext).toEqual(production.spec.template.spec.containers[0].securityContext);
      expect(container.readinessProbe.httpGet).toEqual({ path: '/ready', port: 'http' });
      expect(config.SVC_ENVIRONMENT).toBe('sandbox');
      expect(Number(config.PORT)).toBe(container.ports[0].containerPort);
      expect(find('Service', 'identity-provider-sandbox')!.spec.selector).toEqual(deployment.spec.template.metadata.labels);
      expect(find('HorizontalPodAutoscaler', 'identity-provider-sandbox')!.spec.scaleTargetRef.name).toBe('identity-provider-sandbox');
      expect(find('PodDisruptionBudget', 'identity-provider-sandbox')).toBeDefined();
      // Each environment names the other to callers who send it the other's credentials.
      expect(config.PUBLIC_URL).not.toBe(productionConfig.PUBLIC_URL);
      expect(config.PRODUCTION_BASE_URL).toBe(productionConfig.PUBLIC_URL);
      expect(productionConfig.SANDBOX_BASE_URL).toBe(config.PUBLIC_URL);
    });

    it('holds nothing of production’s: its own secret, database and role, and a configuration the identity provider accepts', () => {
      const refs = (container.env as EnvVar[]).map((e) => e.valueFrom!.secretKeyRef!);
      expect(new Set(refs.map((r) => r.name))).toEqual(new Set(['identity-provider-sandbox-secrets']));
      const secret = secretNamed('identity-provider-sandbox-secrets')!.stringData!;
      const url = new URL(secret.DATABASE_URL!);
      const productionUrl = new URL(secretNamed('identity-provider-secrets')!.stringData!.DATABASE_URL!);
      expect(url.username).toBe('svc_sandbox_identity_provider');
      expect(url.pathname).not.toBe(productionUrl.pathname);
      const env = {
        ...config,
        ...Object.fromEntries(refs.map((r) => [(container.env as EnvVar[]).find((e) => e.valueFrom!.secretKeyRef === r)!.name, secret[r.key]!])),
      };
      expect(unknownVariables('identity-provider', env)).toEqual([]);
      const generated = Object.fromEntries(['IDP_SECRET', 'IDP_SIGNING_KEY_KEK', 'PAIRWISE_SECRET'].map((k) => [k, randomBytes(36).toString('base64')]));
      expect(CONFIG['identity-provider'].load({ ...env, ...generated })).toMatchObject({ SVC_ENVIRONMENT: 'sandbox', issuer: config.PUBLIC_URL });
    });

    it('is migrated by a Job of its own, as the sandbox (its roles and grants, the database marked as the sandbox’s)', () => {
      const job = find('Job', 'svc-migrate-sandbox')!;
      const migrate = job.spec.template.spec.containers[0];
      expect(migrate.command).toEqual(['node', 'packages/db/dist/migrate-cli.js']);
      expect(migrate.env[0]).toEqual({ name: 'SVC_ENVIRONMENT', value: 'sandbox' });
      for (const { valueFrom } of migrate.env.slice(1)) expect(valueFrom.secretKeyRef.name).toBe('svc-migrate-sandbox-secrets');
      const database = (name: string) => new URL(secretNamed(name)!.stringData!.DATABASE_URL!).pathname;
      expect(database('svc-migrate-sandbox-secrets')).toBe(database('identity-provider-sandbox-secrets'));
    });
  });
});
