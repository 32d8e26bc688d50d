import { describe, expect, it } from '@jest/globals';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { parse } from 'yaml';
import { read, yamlDocuments } from './manifests.js';

// The schemas of the Kubernetes API itself (kubernetes-models, generated from its OpenAPI
// document), offline: every object kustomize would apply, and the secret template.
const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'batch/v1/Job': Job,
};

type Doc = { apiVersion: string; kind: string; metadata: { name: string } };
const files = [...(parse(read('infra/k8s/kustomization.yaml')) as { resources: string[] }).resources, 'secret.example.yaml'];
const docs = files.flatMap((file) => yamlDocuments<Doc>(`infra/k8s/${file}`).map((doc) => ({ file, doc })));

const validate = (doc: Doc) => {
  const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
  if (!Model) throw new Error(`no schema for ${doc.apiVersion} ${doc.kind}`);
  new Model(doc).validate();
};

describe('infra/k8s against the Kubernetes API schemas', () => {
  it.each(docs.map(({ file, doc }) => [`${file}: ${doc.kind} ${doc.metadata.name}`, doc]))('%s is a valid object', (_name, doc) => {
    expect(() => validate(doc as Doc)).not.toThrow();
  });

  it('runs every workload (deployments and the migration job) locked down and bounded', () => {
    const workloads = docs.filter(({ doc }) => doc.kind === 'Deployment' || doc.kind === 'Job').map(({ doc }) => doc as Doc & { spec: any });
    // The three services, the sandbox identity provider, the two migration jobs (production's and
    // the sandbox's) and the job that links the credential issuer to the identity provider.
    expect(workloads).toHaveLength(7);
    for (const workload of workloads) {
      const pod = workload.spec.template.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      expect(pod.automountServiceAccountToken).toBe(false);
      for (const container of pod.containers) {
        expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
        expect(container.resources.limits).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      }
    }
  });

  it('covers every kind the manifests use, and refuses a malformed object', () => {
    expect(new Set(docs.map(({ doc }) => doc.kind))).toEqual(
      new Set(['ConfigMap', 'Secret', 'Service', 'Deployment', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Job']),
    );
    const deployment = docs.find(({ doc }) => doc.kind === 'Deployment')!.doc as Doc & { spec: { replicas: unknown } };
    expect(() => validate({ ...deployment, spec: { ...deployment.spec, replicas: 'two' } } as Doc)).toThrow(/replicas must be integer/);
  });
});
