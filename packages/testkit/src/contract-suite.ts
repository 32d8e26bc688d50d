// Jest only (it registers an afterAll): a subpath of its own, so scripts that import the rest of
// the kit outside jest (bench, the reliability suite) never load @jest/globals.
import { afterAll, expect } from '@jest/globals';
import type { Express } from 'express';
import { contractChecked } from './contract.js';

/**
 * For one test file: wraps each app it builds with contractChecked, and when the file ends
 * expects none of them to have answered against its document.
 */
export function contractSuite(): (app: Express) => Express {
  const contracts: ReturnType<typeof contractChecked>[] = [];
  afterAll(async () => {
    expect((await Promise.all(contracts.map((c) => c.violations()))).flat()).toEqual([]);
  });
  return (app) => {
    const checked = contractChecked(app);
    contracts.push(checked);
    return checked.app;
  };
}
