-- wrk script: POST /validate with bench/webhook-review.json whose first selector gets a clause
-- that is always true and never the same (productName != "xR-N", N distinct over threads, R
-- distinct over runs), so that every request brings a selector and a spec the webhook has not
-- seen. The attribute is one the inventory publishes, so the schema check lets the claim
-- through to the allocator (an unpublished one, as `index` once was here, is denied before the
-- allocator's caches).
--   DRAGUARD_REVIEW=FILE       the review (default bench/webhook-review.json); it must hold
--                              the selector startsWith("NVIDIA A100").
--   DRAGUARD_SPECS=repeat      send the review unchanged on every request (case (a) of
--                              bench/webhook-load.sh); =none: the clause is productName ==
--                              "xR-N", which no device matches (an unsatisfiable claim).
--   DRAGUARD_RUN=R             the run's tag in the names (default: the clock), so that a
--                              second run does not repeat the first one's specs.
--   DRAGUARD_DELAY_MS=D        each connection waits D ms between requests (half-rate runs).
--   DRAGUARD_SELECTOR_CLAUSES=K the clause becomes (productName != "xN" || productName ==
--                              "xN-1" || ... "xN-K"): still true for every device, but a larger
--                              expression, as a hostile client would send (selectors may be
--                              10 KB), so that the caches that count compiled programs and specs
--                              in bytes fill within a short run (K=40: ~2.3 KB a selector).
-- The same script drives nginx in bench/webhook-load.sh, so both servers cost the client the
-- same.
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

local mode = os.getenv("DRAGUARD_SPECS") or "fresh"
local run = os.getenv("DRAGUARD_RUN") or tostring(os.time())
local clauses = tonumber(os.getenv("DRAGUARD_SELECTOR_CLAUSES") or "") or 0
local product = 'device.attributes[\\"gpu.nvidia.com\\"].productName'
local headers = {["Content-Type"] = "application/json"}

local n = 0
local fixed = nil
function request()
  if mode == "repeat" then
    fixed = fixed or wrk.format("POST", "/validate", headers, review)
    return fixed
  end
  n = n + 1
  local name = 'x' .. run .. '-' .. (n * 64 + id)
  local op = mode == "none" and ' == ' or ' != '
  local clause = ' && ' .. product .. op .. '\\"' .. name .. '\\"'
  if clauses > 0 then
    local parts = {}
    for k = 1, clauses do
      parts[k] = ' || ' .. product .. ' == \\"' .. name .. '-' .. k .. '\\"'
    end
    clause = ' && (' .. product .. op .. '\\"' .. name .. '\\"' .. table.concat(parts) .. ')'
  end
  return wrk.format("POST", "/validate", headers, head .. clause .. tail)
end

local pause = tonumber(os.getenv("DRAGUARD_DELAY_MS") or "")
if pause and pause > 0 then
  function delay() return pause end
end
