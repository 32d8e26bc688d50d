import { readFileSync } from 'node:fs';
import { CONFIG_VARIABLES as IDP_VARIABLES, loadConfig as loadIdpConfig } from '@svc/identity-provider/config';
import { CONFIG_VARIABLES as VERIFY_VARIABLES, loadConfig as loadVerifyConfig } from '@svc/wallet-verify/config';
import { CONFIG_VARIABLES as ISSUER_VARIABLES, loadConfig as loadIssuerConfig } from '@svc/credential-issuer/config';
import { repoRoot, type Service } from '@svc/testkit';
import { parseAllDocuments } from 'yaml';

export const read = (path: string) => readFileSync(`${repoRoot}${path}`, 'utf8');

/** Every document of a YAML file (a Kubernetes manifest holds several). */
export function yamlDocuments<T = Record<string, unknown>>(path: string): T[] {
  return parseAllDocuments(read(path)).map((d) => {
    if (d.errors.length) throw new Error(`${path}: ${d.errors[0]!.message}`);
    return d.toJS() as T;
  });
}

/** What each service reads from its environment, and its own parser of it. */
export const CONFIG: Record<Service, { variables: readonly string[]; load: (env: NodeJS.ProcessEnv) => unknown }> = {
  'identity-provider': { variables: IDP_VARIABLES, load: loadIdpConfig },
  'wallet-verify': { variables: VERIFY_VARIABLES, load: loadVerifyConfig },
  'credential-issuer': { variables: ISSUER_VARIABLES, load: loadIssuerConfig },
};

/**
 * Variable names a service would silently ignore: a typo in a manifest is a setting that never
 * takes. `<NAME>_FILE` counts as NAME (the file holding its value: parseEnv in @svc/http).
 */
export function unknownVariables(service: Service, env: Record<string, unknown>): string[] {
  const known = (k: string) => CONFIG[service].variables.includes(k);
  return Object.keys(env).filter((k) => !known(k) && !(k.endsWith('_FILE') && known(k.slice(0, -'_FILE'.length))));
}
