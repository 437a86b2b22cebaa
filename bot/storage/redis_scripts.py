"""The Lua scripts of the Redis store (`bot.storage.redis`): each touches the keys of one
chat (one hash tag, so one slot of a cluster) or one shared key, and runs atomically."""

# KEYS[1] the game key; ARGV: expected version, new JSON ('' deletes), ttl seconds.
CAS = """
local cur = redis.call('GET', KEYS[1])
local expected = tonumber(ARGV[1])
local have = 0
if cur then
  local ok, doc = pcall(cjson.decode, cur)  -- an unreadable value is never `expected`
  if ok and type(doc) == 'table' then have = tonumber(doc['version']) or 0 else have = -2 end
end
if have ~= expected then
  -- the same write again (the client retried it across a failover: the first one was
  -- applied but its reply lost) is done, not a conflict; its steps are already appended
  if cur == ARGV[2] or (not cur and ARGV[2] == '') then return -1 end
  return have
end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2], 'EX', tonumber(ARGV[3]))
end
if KEYS[2] then  -- the game's step list: anew (ARGV[4] = '1'), then ARGV[6..] appended
  if ARGV[4] == '1' then redis.call('DEL', KEYS[2]) end
  for i = 6, 5 + tonumber(ARGV[5]) do redis.call('RPUSH', KEYS[2], ARGV[i]) end
  if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], tonumber(ARGV[3])) end
end
return -1
"""

# KEYS[1] the deadlines zset; ARGV: now, now + lease. Due members move to the lease.
CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 100)
for _, m in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], m) end
return due
"""

# KEYS[1] the chat's window zset; ARGV: limit, window seconds, a unique member.
# Redis's own clock, so instances with skewed clocks share one window.
WINDOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
local limit = tonumber(ARGV[1])
if n >= limit then
  local first = n - limit  -- the slot whose leaving brings the window below the limit
  local leaving = redis.call('ZRANGE', KEYS[1], first, first, 'WITHSCORES')
  return tostring(math.max(0.001, tonumber(leaving[2]) + window - now))
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('EXPIRE', KEYS[1], math.ceil(window) + 1)
return '0'
"""

# An unreadable game value moves to the chat's quarantine list (a value of another type
# is renamed aside), and the notice markers are set, in one step: one caller only moves
# it, and the chat is then told once. KEYS: the game, the quarantine list, the chat's
# notice marker, the game's notice marker, the name for a value of another type (all of
# the chat's hash tag). ARGV: the value read, the quarantine's ttl, NOTICE_QUIET, the game
# marker's ttl, '1' when the game's uid is known (else its marker is not set). Returns 1
# when moved, 0 when the value had changed meanwhile.
QUARANTINE = """
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind == 'none' then return 0 end
if kind == 'string' then
  if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
  redis.call('RPUSH', KEYS[2], ARGV[1])
  redis.call('EXPIRE', KEYS[2], tonumber(ARGV[2]))
  redis.call('DEL', KEYS[1])
else
  redis.call('RENAME', KEYS[1], KEYS[5])
  redis.call('EXPIRE', KEYS[5], tonumber(ARGV[2]))
end
redis.call('SET', KEYS[3], '1', 'EX', math.ceil(tonumber(ARGV[3])))
if ARGV[5] == '1' then redis.call('SET', KEYS[4], '1', 'EX', tonumber(ARGV[4])) end
return 1
"""

# KEYS: the chat's notice marker, the game's; ARGV: NOTICE_QUIET, the game marker's ttl.
NOTICE = """
if not redis.call('SET', KEYS[2], '1', 'NX', 'EX', tonumber(ARGV[2])) then return 0 end
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', math.ceil(tonumber(ARGV[1]))) then
  return 0
end
return 1
"""

# KEYS[1] the instances zset; ARGV: this instance, seconds it stays alive. Redis's clock.
ALIVE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])) + 1)
return redis.call('ZCARD', KEYS[1])
"""

# KEYS[1] the lease; ARGV[1] the holder's token: delete only one's own lease.
UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS[1] the lease; ARGV[1] the holder's token, ARGV[2] its new TTL in ms: extend only
# one's own lease (1), else 0 (it expired, or another instance holds it now).
RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""

__all__ = ["ALIVE", "CAS", "CLAIM", "NOTICE", "QUARANTINE", "RENEW", "UNLOCK", "WINDOW"]
