// The evaluator arrives with the presets-and-queries issue; the package exists so the workspace graph is complete.
export const QUERY_ENGINE_VERSION = '0.1.0';
