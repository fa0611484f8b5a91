-- wrk script: POST /validate with bench/webhook-review.json whose first selector gets a clause
-- that is always true and never the same (productName != "xN", N distinct over threads), so
-- that every request brings a selector and a spec the webhook has not seen. The attribute is
-- one the inventory publishes, so the schema check lets the claim through to the allocator
-- (an unpublished one, as `index` once was here, is denied before the allocator's caches). With DRAGUARD_DELAY_MS
-- set, each connection waits that long between requests (half-rate runs).
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

local n = 0
function request()
  n = n + 1
  local clause = ' && device.attributes[\\"gpu.nvidia.com\\"].productName != \\"x' ..
                 (n * 64 + id) .. '\\"'
  return wrk.format("POST", "/validate", {["Content-Type"] = "application/json"},
                    head .. clause .. tail)
end

local pause = tonumber(os.getenv("DRAGUARD_DELAY_MS") or "")
if pause and pause > 0 then
  function delay() return pause end
end
