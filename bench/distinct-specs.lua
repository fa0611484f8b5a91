-- wrk script: POST /validate with bench/webhook-review.json whose first selector gets a clause
-- that is always true and never the same (productName != "xN", N distinct over threads), so
-- that every request brings a selector and a spec the webhook has not seen. The attribute is
-- one the inventory publishes, so the schema check lets the claim through to the allocator
-- (an unpublished one, as `index` once was here, is denied before the allocator's caches). With DRAGUARD_DELAY_MS
-- set, each connection waits that long between requests (half-rate runs). With
-- DRAGUARD_SELECTOR_CLAUSES=K the clause becomes (productName != "xN" || productName == "xN-1"
-- || ... "xN-K"): still true for every device after its first test, but a larger expression,
-- as a hostile client would send (selectors may be 10 KB), so that the caches that count
-- compiled programs and specs in bytes fill within a short run (K=40: ~2.3 KB a selector).
--   DRAGUARD_REVIEW=bench/webhook-review.json wrk -s bench/distinct-specs.lua URL
local f = assert(io.open(os.getenv("DRAGUARD_REVIEW") or "bench/webhook-review.json", "rb"))
local review = f:read("*a")
f:close()
local anchor = 'startsWith(\\"NVIDIA A100\\")'
local at = assert(review:find(anchor, 1, true), "the review has no A100 selector")
local head = review:sub(1, at + #anchor - 1)
local tail = review:sub(at + #anchor)

local threads = 0
function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end

local clauses = tonumber(os.getenv("DRAGUARD_SELECTOR_CLAUSES") or "") or 0
local product = 'device.attributes[\\"gpu.nvidia.com\\"].productName'

local n = 0
function request()
  n = n + 1
  local name = 'x' .. (n * 64 + id)
  local clause = ' && ' .. product .. ' != \\"' .. name .. '\\"'
  if clauses > 0 then
    local parts = {}
    for k = 1, clauses do
      parts[k] = ' || ' .. product .. ' == \\"' .. name .. '-' .. k .. '\\"'
    end
    clause = ' && (' .. product .. ' != \\"' .. name .. '\\"' .. table.concat(parts) .. ')'
  end
  return wrk.format("POST", "/validate", {["Content-Type"] = "application/json"},
                    head .. clause .. tail)
end

local pause = tonumber(os.getenv("DRAGUARD_DELAY_MS") or "")
if pause and pause > 0 then
  function delay() return pause end
end
