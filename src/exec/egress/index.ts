/** The egress allowlist for `setup` commands: policy, proxy, in-sandbox bridge (issue #11). */
export { bridgeArgv, BRIDGE_SOURCE, DEFAULT_BRIDGE_PORT } from './bridge-source.js';
export { classifyAddress, type AddressClass } from './classify-address.js';
export {
  compileEgressPolicy,
  decideEgress,
  DEFAULT_EGRESS_ALLOW,
  matchEgressHost,
  type EgressDecision,
  type EgressPolicy,
} from './egress-policy.js';
export {
  MAX_HEAD_BYTES,
  startEgressProxy,
  type EgressProxy,
  type EgressProxyOptions,
  type EgressReport,
} from './egress-proxy.js';
export { parseHostPattern, DEFAULT_EGRESS_PORTS, type HostPattern } from './host-pattern.js';
export { proxyEnv } from './proxy-env.js';
