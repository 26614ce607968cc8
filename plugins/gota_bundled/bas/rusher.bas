' rusher.bas -- gota-arena's port of its C bot `rusher` (native/bots/bots_rusher.c,
' docs/bots.md) to GotA BASIC, written for this project from that bot's
' documented behaviour; meant for all five seats of a team.
'
' Draft, points and economy as base.bas. Every 6 ticks (staggered by seat):
' the team's centre is the mean of its living heroes; when two of them stand
' more than 10 tiles apart everyone walks to the centre until all are within
' 8 tiles of each other. Otherwise attack the visible enemy within 20 tiles of
' the centre that is closest to the centre; with none, attack-move to the map
' centre and, once there (within 3 tiles), to the enemy god (the mirror of
' our own).
'
' The C bot measures its team in world units; the API gives whole tiles, and
' with them the gathering and the centre drift (the port won about half as
' often). So every tick, not only when it thinks, the script follows its
' team's heroes below the tile (track): a hero's world position lies in an
' interval that each tick moves by the hero's last step (objectVelX/Y) and is
' cut by the tile the hero is seen on; once the hero has crossed a tile edge
' the interval is about one step wide. Enemies stay whole tiles.

dim hasRole(4), blockedId(7), blockedUntil(7), gear(7), cost(22), heroX(4), heroY(4)
dim trk(34)

sub draft()
  for r = 0 to 4: hasRole(r) = 0: next
  for p = 0 to draftPlayerCount() - 1
    if draftPlayerTeam(p) = selfTeam then
      picked = draftedClass(draftPlayerId(p))
      if picked >= 0 then hasRole(heroRole(picked)) = 1
    end if
  next
  choice = -1
  for c = 0 to 9
    if heroAvailable(c) then
      if hasRole(heroRole(c)) = 0 then
        choice = c
        exit for
      end if
    end if
  next
  if choice < 0 then
    for c = 0 to 9
      if heroAvailable(c) then
        choice = c
        exit for
      end if
    next
  end if
  if choice >= 0 then ok = draftHero(choice)
end sub

' R > W > E > Q, as long as points and levels allow
sub spendPoints()
  for k = 0 to 3
    slot = 3
    if k = 1 then slot = 1
    if k = 2 then slot = 2
    if k = 3 then slot = 0
    do while abilityPoints() > 0
      if abilityLevel(slot) >= abilityMaxLevel(slot) then exit do
      if selfLevel < abilityRequiredLevel(slot) then exit do
      if levelAbility(slot) = 0 then exit do
    loop
  next
end sub

' the first inventory slot holding item `id` (found, -1 none)
sub findItem(id)
  found = -1
  for s = 0 to 5
    if itemId(s) = id then
      if itemCount(s) > 0 then
        found = s
        exit sub
      end if
    end if
  next
end sub

sub countItem(id)
  count = 0
  for s = 0 to 5
    if itemId(s) = id then count = count + itemCount(s)
  next
end sub

sub freeSlots()
  free = 0
  for s = 0 to 5
    if itemId(s) = 0 then free = free + 1
  next
end sub

' buy `id` if the gold covers it and it fits (equipment: not owned yet)
sub buy(id, equipment)
  if gold < cost(id) then exit sub
  freeSlots()
  fits = free > 0
  if equipment then
    findItem(id)
    if found >= 0 then exit sub
  else
    for s = 0 to 5
      if itemId(s) = id and itemCount(s) < 8 then fits = 1
    next
  end if
  if fits then
    if buyItem(id) then gold = gold - cost(id)
  end if
end sub

sub economy()
  if selfHp * 100 < selfMaxHp * 60 then
    findItem(1)
    if found < 0 then findItem(2)
    if found >= 0 then
      if itemCooldown(found) = 0 then ok = useItem(found)
    end if
  end if
  if selfMana * 100 < selfMaxMana * 40 then
    findItem(22)
    if found < 0 then findItem(3)
    if found >= 0 then
      if itemCooldown(found) = 0 then ok = useItem(found)
    end if
  end if
  if targetInReach then
    findItem(4)
    if found >= 0 then ok = useItem(found)
  end if
  if canShop() = 0 then exit sub
  gold = selfGold
  countItem(1)
  if count < 1 then buy(1, 0)
  countItem(4)
  if count < 1 then buy(4, 0)
  ' class gear in order, saving up for the next piece
  for k = 0 to 7
    id = gear(k)
    if id = 0 then exit for
    findItem(id)
    if found < 0 then
      freeSlots()
      if gold < cost(id) or free = 0 then exit for
      buy(id, 1)
    end if
  next
end sub

sub blocked(id)
  isBlocked = 0
  for b = 0 to 7
    if blockedId(b) = id then
      if worldTick < blockedUntil(b) then isBlocked = 1
    end if
  next
end sub

' the team's heroes in world units (see the top): trk holds per team hero h
' the low and high x at h and 5 + h, y at 10 + h and 15 + h (world units),
' whether it is known at 20 + h, and x, y in tiles (to 1/100) at 25 + h, 30 + h
sub track()
  n = objectCount()
  ' own heroes are the first five of the heroes in the list
  if heroBase >= n then heroBase = 0
  if objectKind(heroBase) <> 2 or objectTeam(heroBase) <> selfTeam then heroBase = 0
  if heroBase > 0 then
    if objectKind(heroBase - 1) = 2 then heroBase = 0
  end if
  if heroBase = 0 then
    do while heroBase < n - 1
      if objectKind(heroBase) = 2 then exit do
      heroBase = heroBase + 1
    loop
  end if
  for i = heroBase to heroBase + 4
    h = objectId(i) - 100 - 5 * selfTeam
    if objectAlive(i) = 0 then
      trk(20 + h) = 0
    else
      follow(h, objectX(i), objectVelX(i))
      follow(10 + h, objectY(i), objectVelY(i))
      trk(20 + h) = 1
    end if
  next
end sub

' one axis: the interval at trk(k), trk(5 + k) moves by the last step and is cut
' by the tile (Blue reads the lower tile at an edge); its middle in tiles at trk(25 + k)
sub follow(k, tile, stepped)
  lo = (tile - 58) * worldScale + selfTeam: hi = lo + worldScale - 1
  if trk(20 + k mod 5) then
    trk(k) = trk(k) + stepped: trk(5 + k) = trk(5 + k) + stepped
    if trk(k) < lo then trk(k) = lo
    if trk(5 + k) > hi then trk(5 + k) = hi
  end if
  if trk(20 + k mod 5) = 0 or trk(k) > trk(5 + k) then
    trk(k) = lo: trk(5 + k) = hi
  end if
  trk(25 + k - 5 * (k \ 10)) = (((trk(k) + trk(5 + k)) \ 2 + 3450000) \ 600) / 100   ' \ binds looser than /
end sub

' one pass: the team's living heroes, the enemy nearest the team's centre
sub scan()
  n = objectCount()
  sumX = 0: sumY = 0: heroes = 0
  for i = 0 to n - 1
    if objectKind(i) = 2 then
      if objectTeam(i) = selfTeam and objectAlive(i) then
        h = objectId(i) - 100 - 5 * selfTeam
        heroX(heroes) = trk(25 + h): heroY(heroes) = trk(30 + h)
        sumX = sumX + heroX(heroes): sumY = sumY + heroY(heroes)
        heroes = heroes + 1
      end if
    end if
    if objectKind(i) = 1 and objectTeam(i) = selfTeam then
      godX = objectX(i): godY = objectY(i)
    end if
  next
  spread = 0
  for a = 0 to heroes - 2
    for b = a + 1 to heroes - 1
      dx = heroX(a) - heroX(b): dy = heroY(a) - heroY(b)
      d = dx * dx + dy * dy
      if d > spread then spread = d
    next
  next
  cx = sumX / heroes: cy = sumY / heroes
  best = 0: bestD = 400.5: second = 0: secondD = 400.5
  targetInReach = 0
  sx = trk(25 + seat - 5 * selfTeam): sy = trk(30 + seat - 5 * selfTeam)
  for i = 0 to n - 1
    if objectTeam(i) <> selfTeam then
      id = objectId(i)
      kind = objectKind(i)
      ex = objectX(i): ey = objectY(i)
      if id = selfTarget then
        dx = ex - sx: dy = ey - sy
        if kind = 1 or kind = 4 or kind = 5 then
          targetInReach = dx * dx + dy * dy <= buildingReach2
        else
          targetInReach = dx * dx + dy * dy <= reach2
        end if
      end if
      dx = ex - cx: dy = ey - cy
      d = dx * dx + dy * dy
      if id = selfTarget then d = d - 0.25   ' a tie (common with whole tiles) keeps the current target
      if d < secondD then
        usable = 1
        if kind = 6 then
          if objectTarget(i) = 0 or objectReturning(i) then usable = 0
        end if
        if usable then
          blocked(id)
          if isBlocked then usable = 0
        end if
        if usable then
          if d < bestD then
            second = best: secondD = bestD
            best = id: bestD = d
          else
            second = id: secondD = d
          end if
        end if
      end if
    end if
  next
end sub

' walk (1) or attack-move (2) unless that order to within a tile is running
' (or an attack-move is fighting on its way)
sub move(kind, x, y)
  if order = kind then
    dx = orderX - x: dy = orderY - y
    if dx * dx + dy * dy <= 1 then exit sub
    if kind = 2 and selfTarget <> 0 then exit sub
  end if
  if kind = 1 then
    ok = walkTo(x, y)
  else
    ok = attackMove(x, y)
  end if
  if ok then
    order = kind: orderX = x: orderY = y
    walking = kind = 1
  end if
end sub

sub attack(id)
  attacked = 0
  if selfTarget = id and walking = 0 then
    attacked = 1
    exit sub
  end if
  if attackTarget(id) then
    walking = 0
    attacked = 1
    order = 3
  else
    ' refused: a building that is not exposed yet, or out of sight
    blockedId(nextBlock) = id
    blockedUntil(nextBlock) = worldTick + 5 * tickRate
    nextBlock = (nextBlock + 1) mod 8
  end if
end sub

if drafting then
  if draftTurnId = selfId then draft()
  end
end if

seat = selfId - 100
track()
if (worldTick + seat) mod 6 <> 0 then end

if initialized = 0 then
  initialized = 1
  cost(1) = 30: cost(2) = 75: cost(3) = 90: cost(4) = 40: cost(5) = 80: cost(6) = 90: cost(7) = 70
  cost(8) = 100: cost(9) = 120: cost(10) = 120: cost(11) = 110: cost(12) = 140: cost(13) = 150
  cost(14) = 150: cost(15) = 140: cost(16) = 160: cost(17) = 170: cost(18) = 180: cost(19) = 180
  cost(20) = 190: cost(21) = 100: cost(22) = 45
  if selfClass = Ranger or selfClass = Crossbowman then
    gear(0) = 8: gear(1) = 14: gear(2) = 19: gear(3) = 6: gear(4) = 9
  elseif selfClass = Arcanist or selfClass = DruidWarden or selfClass = Lich or selfClass = Warlock then
    gear(0) = 12: gear(1) = 10: gear(2) = 17: gear(3) = 20: gear(4) = 6: gear(5) = 9
  else
    gear(0) = 7: gear(1) = 5: gear(2) = 11: gear(3) = 13: gear(4) = 18: gear(5) = 6: gear(6) = 9
  end if
end if

spendPoints()
if selfHp <= 0 then
  order = 0: walking = 0   ' a respawn clears the orders
  end
end if
if selfChannelTicks > 0 or selfStunTicks > 0 then end

range = (selfAttackRange \ 100) / (worldScale \ 100)
reach2 = (range + 1) * (range + 1)
buildingReach2 = reach2
if range < 1.75 then buildingReach2 = 2.75 * 2.75

scan()
economy()
if spread > 100 then gather = 1
if spread <= 64 then gather = 0
if gather then
  move(1, cx, cy)
  end
end if
if best <> 0 then
  attack(best)
  if attacked = 0 and second <> 0 then attack(second)
  if attacked then end
end if
dx = sx - 57.5: dy = sy - 57.5
if mode = 0 and dx * dx + dy * dy <= 9 then mode = 1
if mode = 0 then
  move(2, 57.5, 57.5)
else
  move(2, 115 - godX, 115 - godY)
end if
