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
const secret = yamlDocuments<Manifest>('infra/k8s/secret.example.yaml')[0]!;

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
          expect(ref.name).toBe(secret.metadata.name);
          expect(Object.keys(secret.stringData!)).toContain(ref.key);
          return [e.name, secret.stringData![ref.key]!];
        }),
      );
      const env: Record<string, string> = { ...configMap.data, ...fromSecret };
      expect(unknownVariables(service, env)).toEqual([]);
      // The template's CHANGE-ME secrets are refused: an operator must generate each one.
      const placeholders = ['IDP_SECRET', 'SIGNING_KEY_KEK'].filter((k) => env[k]?.startsWith('CHANGE-ME-TO'));
      if (placeholders.length) expect(() => CONFIG[service].load(env)).toThrow(/placeholder/);
      const generated = Object.fromEntries(placeholders.map((k) => [k, randomBytes(36).toString('base64')]));
      expect(() => CONFIG[service].load({ ...env, ...generated })).not.toThrow();
    });
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
    expect(container.env).toEqual([{ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'svc-secrets', key: 'DATABASE_URL' } } }]);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    expect(job.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
  });
});
