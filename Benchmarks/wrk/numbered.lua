-- Shared by the scripts whose every request needs a name of its own: numbers wrk's threads (tid,
-- set in each thread's state by setup) and each thread's requests (numbered()), so that
-- tid-number is unique within a run. Loaded with dofile, from the repository's root.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local n = 0
function numbered()
  n = n + 1
  return n
end
