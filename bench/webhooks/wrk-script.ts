/**
 * The wrk Lua script: every request is a distinct delivery (own `X-GitHub-Delivery`) for a
 * distinct issue, signed with HMAC-SHA256 through LuaJIT's FFI into the libcrypto wrk already links,
 * so both apps verify real signatures on bodies they have never seen.
 */
export function wrkScript(options: {
  path: string;
  secret: string;
  bodyPrefix: string;
  bodySuffix: string;
  /** Unique per wrk run: delivery ids and issue numbers never repeat across runs. */
  runTag: string;
  issueBase: number;
}): string {
  const lua = (s: string): string => JSON.stringify(s); // JSON string escapes are valid Lua
  return `
local ffi = require("ffi")
ffi.cdef[[
typedef struct evp_md_st EVP_MD;
const EVP_MD *EVP_sha256(void);
unsigned char *HMAC(const EVP_MD *evp_md, const void *key, int key_len, const unsigned char *d, size_t n, unsigned char *md, unsigned int *md_len);
]]
local ok, C = pcall(function() local c = ffi.C; local _ = c.EVP_sha256; return c end)
if not ok then C = ffi.load("crypto") end
local md = ffi.new("unsigned char[32]")
local mdlen = ffi.new("unsigned int[1]")
local hexdigits = {}
for i = 0, 255 do hexdigits[i] = string.format("%02x", i) end
local secret = ${lua(options.secret)}
local prefix = ${lua(options.bodyPrefix)}
local suffix = ${lua(options.bodySuffix)}
local function sign(body)
  C.HMAC(C.EVP_sha256(), secret, #secret, body, #body, md, mdlen)
  local out = {}
  for i = 0, 31 do out[i + 1] = hexdigits[md[i]] end
  return "sha256=" .. table.concat(out)
end

local threads = {}
local nextId = 0
function setup(thread)
  thread:set("tid", nextId)
  nextId = nextId + 1
  table.insert(threads, thread)
end

counter = 0
ok2xx = 0
other = 0
function request()
  counter = counter + 1
  local issue = ${options.issueBase} + tid * 10000000 + counter
  local body = prefix .. issue .. suffix
  return wrk.format("POST", ${lua(options.path)}, {
    ["Content-Type"] = "application/json",
    ["X-GitHub-Event"] = "issues",
    ["X-GitHub-Delivery"] = ${lua(options.runTag)} .. "-" .. tid .. "-" .. counter,
    ["X-Hub-Signature-256"] = sign(body),
  }, body)
end

function response(status, headers, body)
  if status >= 200 and status < 300 then ok2xx = ok2xx + 1 else other = other + 1 end
end

function done(summary, latency, requests)
  local okSum, otherSum = 0, 0
  for _, t in ipairs(threads) do
    okSum = okSum + t:get("ok2xx")
    otherSum = otherSum + t:get("other")
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"duration_us":%d,"ok":%d,"non2xx":%d,"socket_errors":%d,"p50_us":%d,"p99_us":%d}\\n',
    summary.requests, summary.duration, okSum, otherSum,
    e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;
}
