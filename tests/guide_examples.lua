-- Every ```lua block of README.md and docs/user-guide.md, run verbatim and in
-- order, as a reader would type them into one session: a block's top-level
-- locals stay visible to the blocks after it (each block is its own chunk, so
-- its `local` declarations at the start of a line are read as globals of the
-- session). A block that raises an error fails the test with the block's
-- number, first line and the error. tests/guide_examples.sh runs it in an
-- empty folder after the guide's first step (make run's quickstart), whose
-- results/ the examples then read and write.
local checks = require "checks"
local check = checks.check
local here = arg[0]:match("(.*/)") or "./"
local root = here .. "../"

local function blocks(path)
  local f = assert(io.open(root .. path))
  local text = f:read("a")
  f:close()
  local out, n = {}, 0
  for body in text:gmatch("```lua\n(.-)```") do
    n = n + 1
    out[#out + 1] = {name = ("%s, block %d"):format(path, n), code = body}
  end
  return out
end

local all = {}
for _, doc in ipairs{"README.md", "docs/user-guide.md"} do
  for _, b in ipairs(blocks(doc)) do all[#all + 1] = b end
end
check(#all >= 20, "found %d blocks in README.md and docs/user-guide.md", #all)

cardiac.quiet = true
for _, b in ipairs(all) do
  -- a line's leading `local` (top level of the block) becomes a session global
  local code = b.code:gsub("\n(local function )", "\nfunction "):gsub("^local function ", "function ")
  code = ("\n" .. code):gsub("\nlocal ([%w_, ]+ =)", "\n%1"):sub(2)
  local t0 = cardiac.clock()
  local fn, err = load(code, "=" .. b.name, "t", _ENV)
  local ok = false
  if fn then ok, err = pcall(fn) end
  check(ok, "%s (%.1f s): %s%s", b.name, cardiac.clock() - t0, b.code:match("^[^\n]*"),
        ok and "" or ("\n      " .. tostring(err)))
end
checks.finish()
