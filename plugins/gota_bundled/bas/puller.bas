' puller.bas -- gota-arena's port of its C bot `puller` (native/bots/bots_puller.c,
' docs/bots.md) to GotA BASIC, written for this project from that bot's code.
'
' Every 6 ticks (staggered by seat), in a team-normalised frame (Blue mirrors
' every tile: x' = 115 - x), in priority order: buy back when dead; spend
' points R > W > E > Q; dodge a hostile area spell due within 3 s; retreat
' under 25 % HP (a caster also under 15 % mana from level 3): portal scroll to
' the own guard when home is far and no enemy hero is close, else walk home,
' and shop in the spawn room until 90 % HP and 60 % mana; spells (self heals
' and restores, area heals on the most wounded ally, strikes on the best
' target, the last W charge kept); potions by thresholds; back off from tower
' aggro and when outnumbered; kite melee heroes when ranged and hurt; pull a
' resting camp into the own creep wave when safe; fight the best-scored
' target; else shop, defend own buildings, and follow the own lane's creep
' front (frontline and mage lane 0, carry and support lane 2, fighter mid)
' until level 6, then push mid to the enemy god.
'
' Like rusher.bas it follows its team's heroes below the tile (track), as the C
' bot measures distances in world units; enemies stay whole tiles. Where the
' API gives less than the C bot reads, the port approximates: other
' heroes' maximum HP is the highest HP seen of them; spell shapes are circles
' of the ability's radius around the aim point; a ground spell leads a hero by
' its velocity over the last tick; a neutral counts as fighting while it has a
' visible target; a building counts as attackable until an attack on it is
' refused (then it is left alone for 5 s); a potion's cooldown stands for the
' C bot's "no potion still working".

dim hasRole(4), blockedId(7), blockedUntil(7), cost(22), maxHp(9)
dim abCast(39), abAnchor(39), abRange(39), abRadius(39), abInner(39), abDelay(39), abHeal(39)
dim ownTowerX(23), ownTowerY(23), ownTowerId(23), midX(2), midY(2), barX(1), barY(1), guardX(1), guardY(1)
dim dirX(7), dirY(7), laneFrontX(2), laneFrontY(2), laneFrontD(2), creepX(63), creepY(63)
dim candIndex(7), candX(7), candY(7), trk(34)

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

' the k-th ability slot in the order R > W > E > Q (slot)
sub prioritySlot(k)
  slot = 3
  if k = 1 then slot = 1
  if k = 2 then slot = 2
  if k = 3 then slot = 0
end sub

sub spendPoints()
  for k = 0 to 3
    prioritySlot(k)
    do while abilityPoints() > 0
      if abilityLevel(slot) >= abilityMaxLevel(slot) then exit do
      if selfLevel < abilityRequiredLevel(slot) then exit do
      if levelAbility(slot) = 0 then exit do
    loop
  next
end sub

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

' buy `id` if the gold covers it and it fits (bought = 1)
sub buy(id, equipment)
  bought = 0
  if gold < cost(id) then exit sub
  fits = 0
  for s = 0 to 5
    if itemId(s) = 0 then fits = 1
    if equipment = 0 and itemId(s) = id and itemCount(s) < 8 then fits = 1
  next
  if equipment then
    findItem(id)
    if found >= 0 then exit sub
  end if
  if fits then
    if buyItem(id) then
      gold = gold - cost(id)
      bought = 1
    end if
  end if
end sub

' a coordinate of the team-normalised frame, to or from absolute tiles
sub frame(x, y)
  fx = x: fy = y
  if selfTeam = 1 then
    fx = 115 - x: fy = 115 - y
  end if
end sub

' walk (1) or attack-move (2) to frame point (x, y) unless that order to within
' a tile is running (or an attack-move is fighting on its way). The script
' remembers its last order; the game drops an order when the hero arrives, so
' a hero that stood still over the last tick gets it again, as the C bot does.
sub move(kind, x, y)
  if order = kind then
    dx = orderX - x: dy = orderY - y
    if dx * dx + dy * dy <= 1 and selfMoving then exit sub
    if kind = 2 and selfTarget <> 0 then exit sub
  end if
  frame(x, y)
  if kind = 1 then
    ok = walkTo(fx, fy)
  else
    ok = attackMove(fx, fy)
  end if
  if ok then
    order = kind: orderX = x: orderY = y
    walking = kind = 1
  end if
end sub

sub attack(id)
  if selfTarget = id and walking = 0 then exit sub
  if attackTarget(id) then
    walking = 0
    order = 3
  else
    ' refused: a building that is not exposed yet
    blockedId(nextBlock) = id
    blockedUntil(nextBlock) = worldTick + 5 * tickRate
    nextBlock = (nextBlock + 1) mod 8
  end if
end sub

sub blocked(id)
  isBlocked = 0
  for b = 0 to 7
    if blockedId(b) = id and worldTick < blockedUntil(b) then isBlocked = 1
  next
end sub

' (awayX, awayY): `dist` tiles from (x, y) directly away from (fromX, fromY), inside the map
sub away(x, y, fromX, fromY, dist)
  dx = x - fromX: dy = y - fromY
  len = dx * dx + dy * dy
  if len = 0 then
    dx = 1: len = 1
  end if
  ' a square root by Newton steps (decimals)
  r = len / 2 + 0.5
  for it = 1 to 8: r = (r + len / r) / 2: next
  awayX = x + dx * dist / r: awayY = y + dy * dist / r
  if awayX < 2 then awayX = 2
  if awayX > 113 then awayX = 113
  if awayY < 2 then awayY = 2
  if awayY > 113 then awayY = 113
end sub

' the lane (Red's frame) of a frame point: 0 along the bottom and left edges, 2 along the right and top, else mid
sub laneOf(x, y)
  lane = 1
  if (y < 15 and x < 100) or (x < 15 and y < 100) then lane = 0
  if (x > 100 and y > 15) or (y > 100 and x > 15) then lane = 2
end sub

sub ability(k, cast, anchor, rng, radius, inner, delay)
  abCast(k) = cast: abAnchor(k) = anchor: abRange(k) = rng / 10: abRadius(k) = radius / 10
  abInner(k) = inner / 10: abDelay(k) = delay
end sub

' the map and the game's numbers, once
sub setup()
  cost(1) = 30: cost(2) = 75: cost(3) = 90: cost(4) = 40: cost(5) = 80: cost(6) = 90: cost(7) = 70
  cost(8) = 100: cost(9) = 120: cost(10) = 120: cost(11) = 110: cost(12) = 140: cost(13) = 150
  cost(14) = 150: cost(15) = 140: cost(16) = 160: cost(17) = 170: cost(18) = 180: cost(19) = 180
  cost(20) = 190: cost(21) = 100: cost(22) = 45
  ' per class * 4 + slot: cast (1 self, 2 melee, 3 projectile, 4 area), anchor (1 caster),
  ' range, radius, inner radius (tenths of tiles), delay (ticks)
  ability(0, 1, 0, 0, 0, 0, 0): ability(1, 2, 0, 15, 0, 0, 0): ability(2, 4, 1, 0, 23, 0, 12): ability(3, 4, 1, 18, 18, 0, 6)
  ability(4, 3, 0, 70, 0, 0, 0): ability(5, 3, 0, 60, 0, 0, 0): ability(6, 4, 0, 65, 20, 0, 24): ability(7, 4, 1, 80, 80, 0, 24)
  ability(8, 1, 0, 0, 0, 0, 0): ability(9, 3, 0, 55, 0, 0, 0): ability(10, 4, 0, 60, 20, 0, 48): ability(11, 4, 0, 70, 30, 0, 72)
  ability(12, 1, 0, 0, 0, 0, 0): ability(13, 4, 0, 40, 20, 0, 12): ability(14, 4, 0, 40, 25, 0, 12): ability(15, 4, 0, 33, 20, 0, 24)
  ability(16, 1, 0, 0, 0, 0, 0): ability(17, 2, 0, 15, 0, 0, 0): ability(18, 4, 1, 20, 20, 0, 6): ability(19, 3, 0, 50, 0, 0, 0)
  ability(20, 1, 0, 0, 0, 0, 0): ability(21, 2, 0, 15, 0, 0, 0): ability(22, 4, 0, 27, 20, 0, 24): ability(23, 4, 1, 0, 23, 7, 12)
  ability(24, 3, 0, 70, 0, 0, 0): ability(25, 3, 0, 67, 0, 0, 0): ability(26, 4, 1, 60, 60, 0, 12): ability(27, 4, 1, 75, 75, 0, 24)
  ability(28, 3, 0, 60, 0, 0, 0): ability(29, 3, 0, 67, 0, 0, 0): ability(30, 4, 0, 50, 20, 0, 24): ability(31, 4, 0, 65, 20, 7, 24)
  ability(32, 1, 0, 0, 0, 0, 0): ability(33, 3, 0, 47, 0, 0, 0): ability(34, 4, 0, 40, 40, 0, 24): ability(35, 4, 0, 50, 20, 7, 24)
  ability(36, 1, 0, 0, 0, 0, 0): ability(37, 2, 0, 15, 0, 0, 0): ability(38, 4, 1, 25, 25, 0, 12): ability(39, 4, 0, 22, 20, 0, 48)
  abHeal(2) = 1: abHeal(13) = 1: abHeal(14) = 1   ' the area heals
  dirX(0) = 1: dirY(0) = 0: dirX(1) = 0.7: dirY(1) = 0.7: dirX(2) = 0: dirY(2) = 1: dirX(3) = -0.7: dirY(3) = 0.7
  dirX(4) = -1: dirY(4) = 0: dirX(5) = -0.7: dirY(5) = -0.7: dirX(6) = 0: dirY(6) = -1: dirX(7) = 0.7: dirY(7) = -0.7
  role = heroRole(selfClass)
  myLane = 1
  if role = 0 or role = 2 then myLane = 0
  if role = 1 or role = 3 then myLane = 2
  melee = selfClass = VanguardKnight or selfClass = DemonHunter or selfClass = DeathKnight or selfClass = Berserker
  caster = selfClass = Arcanist or selfClass = DruidWarden or selfClass = Lich or selfClass = Warlock
  frame(selfX, selfY)
  homeX = fx: homeY = fy
  ' the own buildings, all standing now: the enemy's are their mirrors
  towers = 0: guards = 0: mids = 0
  for i = 0 to objectCount() - 1
    if objectTeam(i) = selfTeam then
      frame(objectX(i), objectY(i))
      if objectKind(i) = 1 then
        godX = fx: godY = fy
      end if
      if objectKind(i) = 4 then
        ownTowerX(towers) = fx: ownTowerY(towers) = fy: ownTowerId(towers) = objectId(i): towers = towers + 1
      end if
    end if
  next
  ' guards stand within 8 tiles of the god (the one with the lower id is the portal's); mid towers, outer first
  guardId = 0
  for t = 0 to towers - 1
    dx = ownTowerX(t) - godX: dy = ownTowerY(t) - godY
    if dx * dx + dy * dy <= 64 and guards < 2 then
      if guards = 1 and ownTowerId(t) < guardId then
        guardX(1) = guardX(0): guardY(1) = guardY(0)
        guardX(0) = ownTowerX(t): guardY(0) = ownTowerY(t)
      else
        guardX(guards) = ownTowerX(t): guardY(guards) = ownTowerY(t)
        guardId = ownTowerId(t)
      end if
      guards = guards + 1
    else
      laneOf(ownTowerX(t), ownTowerY(t))
      if lane = 1 then
        midX(mids) = ownTowerX(t): midY(mids) = ownTowerY(t): mids = mids + 1
      end if
    end if
  next
  for a = 0 to mids - 2
    for b = a + 1 to mids - 1
      da = (midX(a) - godX) * (midX(a) - godX) + (midY(a) - godY) * (midY(a) - godY)
      db = (midX(b) - godX) * (midX(b) - godX) + (midY(b) - godY) * (midY(b) - godY)
      if db > da then
        t = midX(a): midX(a) = midX(b): midX(b) = t
        t = midY(a): midY(a) = midY(b): midY(b) = t
      end if
    next
  next
  ' the mid barracks: the two nearest the mid gate tower
  barD0 = 32000: barD1 = 32000
  for i = 0 to objectCount() - 1
    if objectTeam(i) = selfTeam and objectKind(i) = 5 then
      frame(objectX(i), objectY(i))
      d = (fx - midX(2)) * (fx - midX(2)) + (fy - midY(2)) * (fy - midY(2))
      if d < barD0 then
        barD1 = barD0: barX(1) = barX(0): barY(1) = barY(0)
        barD0 = d: barX(0) = fx: barY(0) = fy
      elseif d < barD1 then
        barD1 = d: barX(1) = fx: barY(1) = fy
      end if
    end if
  next
end sub

' the team's heroes in world units (as rusher.bas): trk holds per team hero h
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

' an enemy building (the mirror of own frame point x, y) the team has not seen fall
sub standing(x, y)
  frame(115 - x, 115 - y)
  isStanding = terrainWalkable(fx, fy) = 0
end sub

' the push target: mid's next standing enemy tower, its barracks, the guards, then the god
sub pushTarget()
  pushX = 115 - godX: pushY = 115 - godY: pushGod = 1
  for k = 5 to 0 step -1
    if k >= 4 then
      standing(guardX(k - 4), guardY(k - 4))
      if isStanding then
        pushX = 115 - guardX(k - 4): pushY = 115 - guardY(k - 4): pushGod = 0
      end if
    elseif k >= 2 then
      standing(barX(k - 2), barY(k - 2))
      if isStanding then
        pushX = 115 - barX(k - 2): pushY = 115 - barY(k - 2): pushGod = 0
      end if
    end if
  next
  for k = 2 to 0 step -1
    standing(midX(k), midY(k))
    if isStanding then
      pushX = 115 - midX(k): pushY = 115 - midY(k): pushGod = 0
    end if
  next
end sub

' one pass over what the team sees: the best-scored target and the situation
' (reads only what each kind needs: the pass costs most of a decision)
sub perceive()
  best = 0: bestScore = 0: enemyNear = 0: allyNear = 0
  heroNear = 0: heroNearD = 0: meleeThreat = 0: towerAggro = 0: wounded = 0: woundedPm = 1000
  front = 0: frontD = 0: neutralOnMe = 0: neutralNear = 0: neutralD = 0: creeps = 0: cands = 0
  targetHeroInReach = 0: threat = 0: threatD = 0
  for l = 0 to 2: laneFrontD(l) = -1: next
  wantLane = myLane
  if selfLevel >= 6 then wantLane = 1
  reach = (selfAttackRange \ 100) / (worldScale \ 100)
  inReach = (reach + 2) * (reach + 2)
  egx = 115 - godX: egy = 115 - godY
  n = objectCount()
  for i = 0 to n - 1
    kind = objectKind(i): team = objectTeam(i)
    ox = objectX(i): oy = objectY(i)
    if blue then
      ox = 115 - ox: oy = 115 - oy
    end if
    dx = ox - sx: dy = oy - sy
    d = dx * dx + dy * dy
    if team = selfTeam then
      if kind = 3 then
        if creeps < 64 then
          creepX(creeps) = ox: creepY(creeps) = oy: creeps = creeps + 1
        end if
        laneOf(ox, oy)
        if lane = wantLane then
          g = (ox - egx) * (ox - egx) + (oy - egy) * (oy - egy)
          if front = 0 or g < frontD then
            front = objectId(i): frontD = g: frontX = ox: frontY = oy
          end if
        end if
      elseif kind = 2 then
        if objectAlive(i) then
          id = objectId(i): hp = objectHp(i)
          frame(trk(25 + id - 100 - 5 * selfTeam), trk(30 + id - 100 - 5 * selfTeam))
          ox = fx: oy = fy
          dx = ox - sx: dy = oy - sy
          d = dx * dx + dy * dy
          if hp > maxHp(id - 100) then maxHp(id - 100) = hp
          if d <= 100 then allyNear = allyNear + 1
          if d <= 25 then
            pm = (hp * 1000) \ maxHp(id - 100)
            if pm < woundedPm then
              wounded = id: woundedPm = pm: woundedX = ox: woundedY = oy
            end if
          end if
        end if
      elseif kind = 4 then
        ' the lane's front tower: the standing own tower farthest from the own god (guards aside)
        g = (ox - godX) * (ox - godX) + (oy - godY) * (oy - godY)
        if g > 64 then
          laneOf(ox, oy)
          if g > laneFrontD(lane) then
            laneFrontD(lane) = g: laneFrontX(lane) = ox: laneFrontY(lane) = oy
          end if
        end if
      end if
    elseif kind = 3 then
      if d <= inReach then
        hp = objectHp(i)
        if objectTarget(i) = selfId then offer(i, objectId(i), 450)
        if hp <= selfAttackDamage then
          offer(i, objectId(i), 800 - hp)
        else
          offer(i, objectId(i), 300 - hp)
        end if
      end if
    elseif kind = 2 then
      id = objectId(i): hp = objectHp(i)
      if hp > maxHp(id - 100) then maxHp(id - 100) = hp
      pm = (hp * 1000) \ maxHp(id - 100)
      if d <= 100 then enemyNear = enemyNear + 1
      if d <= 144 and (heroNear = 0 or d < heroNearD) then
        heroNear = id: heroNearD = d: heroNearX = ox: heroNearY = oy
      end if
      if d <= 6.25 then
        c = objectClass(i)
        if c = VanguardKnight or c = DemonHunter or c = DeathKnight or c = Berserker then
          meleeThreat = id: threatX = ox: threatY = oy
        end if
      end if
      if id = selfTarget then targetHeroInReach = d <= (reach + 1) * (reach + 1)
      threatens(ox, oy)
      if threatening and (threat = 0 or d < threatD) then
        threat = id: threatD = d: defendX = ox: defendY = oy
      end if
      if d <= inReach then
        if hp <= 3 * selfAttackDamage or pm < 350 then
          score = 900 - pm \ 4
        elseif objectTarget(i) = selfId then
          score = 600
        else
          score = 500 - pm \ 4
        end if
        offer(i, id, score)
      end if
    elseif kind = 6 then
      if d <= 100 then
        t = objectTarget(i)
        if t = selfId then
          neutralOnMe = objectId(i)
          offer(i, neutralOnMe, 350)
        end if
        if t = 0 and (neutralNear = 0 or d < neutralD) then
          neutralNear = objectId(i): neutralD = d: neutralX = ox: neutralY = oy
        end if
      end if
    elseif kind = 4 or kind = 5 then
      if kind = 4 then
        if objectTarget(i) = selfId then
          towerAggro = objectId(i): aggroX = ox: aggroY = oy
        end if
      end if
      ' judged after the pass, once the allied creeps are known (no allied hero is counted
      ' yet at this point of the list: buildings come first, as in the C bot's unit table)
      if d <= (reach + 8) * (reach + 8) and cands < 8 then
        candIndex(cands) = i: candX(cands) = ox: candY(cands) = oy: cands = cands + 1
      end if
    elseif kind = 1 then
      if d <= 144 then offer(i, objectId(i), 1000)
    end if
  next
  for c = 0 to cands - 1
    creepsNear(candX(c), candY(c))
    if objectKind(candIndex(c)) = 5 or near >= 2 then offer(candIndex(c), objectId(candIndex(c)), 400)
  next
end sub

' whether an enemy hero at frame point (x, y) stands within 9 tiles of an own
' front tower, guard or the god (the own buildings come before heroes in the list)
sub threatens(x, y)
  threatening = (x - godX) * (x - godX) + (y - godY) * (y - godY) <= 81
  for l = 0 to 2
    if laneFrontD(l) >= 0 then
      if (x - laneFrontX(l)) * (x - laneFrontX(l)) + (y - laneFrontY(l)) * (y - laneFrontY(l)) <= 81 then threatening = -1
    end if
  next
  for gi = 0 to guards - 1
    if (x - guardX(gi)) * (x - guardX(gi)) + (y - guardY(gi)) * (y - guardY(gi)) <= 81 then threatening = -1
  next
end sub

sub offer(i, id, score)
  if score <= bestScore then exit sub
  blocked(id)
  if isBlocked then exit sub
  best = id: bestScore = score: bestIndex = i: bestKind = objectKind(i): bestHp = objectHp(i)
  frame(objectX(i), objectY(i))
  bestX = fx: bestY = fy
end sub

' allied creeps (of the perceive pass) within 5 tiles of frame point (x, y)
sub creepsNear(x, y)
  near = 0
  for j = 0 to creeps - 1
    if (creepX(j) - x) * (creepX(j) - x) + (creepY(j) - y) * (creepY(j) - y) <= 25 then near = near + 1
  next
end sub

' a visible hostile area strike due within 3 s whose circle holds the hero: step out of it
sub dodge()
  dodged = 0
  for k = 0 to spellCount() - 1
    cid = spellCasterId(k)
    hostile = cid = 0 or (cid - 100) \ 5 <> selfTeam
    a = spellAbility(k)
    if hostile and a >= 0 and spellImpactTick(k) - worldTick <= 72 then
      if abCast(a) = 4 and abRadius(a) > 0 and abHeal(a) = 0 then
        frame(spellX(k), spellY(k))
        ax = fx: ay = fy
        r2 = abRadius(a) * abRadius(a)
        if (sx - ax) * (sx - ax) + (sy - ay) * (sy - ay) <= r2 then
          stp = abRadius(a) + 1
          if stp > 4 then stp = 4
          for dd = 0 to 7
            px = sx + dirX(dd) * stp: py = sy + dirY(dd) * stp
            if (px - ax) * (px - ax) + (py - ay) * (py - ay) > r2 then
              frame(px, py)
              ' terrain takes whole tiles: OR with 0 rounds a decimal to the nearest integer
              if terrainWalkable(fx or 0, fy or 0) then
                move(1, px, py)
                dodged = 1
                exit sub
              end if
            end if
          next
        end if
      end if
    end if
  next
end sub

sub canCast(a)
  castable = abilityLevel(a) > 0 and abilityCooldown(a) = 0 and abilityCharges(a) > 0
  castable = castable and selfMana >= abilityManaCost(a) and selfSilenceTicks = 0
end sub

' one damaging ability `a` at the best target if it reaches (struck = 1)
sub strike(a)
  struck = 0
  sk = selfClass * 4 + a
  dx = bestX - sx: dy = bestY - sy
  d = dx * dx + dy * dy
  rng = abRange(sk)
  if abCast(sk) = 2 or abCast(sk) = 3 then
    if d > rng * rng then exit sub
    struck = castTarget(a, best)
    exit sub
  end if
  if abAnchor(sk) = 1 then
    r = abRadius(sk)
    if d > r * r * 0.81 or d < abInner(sk) * abInner(sk) then exit sub
    frame(bestX, bestY)
    struck = castPoint(a, fx, fy)
    exit sub
  end if
  px = bestX: py = bestY
  if bestKind = 2 then
    ' lead a moving hero by its velocity over the last tick
    vx = (objectVelX(bestIndex) * abDelay(sk)) \ 600: vy = (objectVelY(bestIndex) * abDelay(sk)) \ 600
    if selfTeam = 1 then
      vx = -vx: vy = -vy
    end if
    px = px + vx / 100: py = py + vy / 100
  end if
  if (px - sx) * (px - sx) + (py - sy) * (py - sy) > rng * rng then
    px = bestX: py = bestY
    if d > rng * rng then exit sub
  end if
  frame(px, py)
  struck = castPoint(a, fx, fy)
  ' a led point the team does not see is refused: the C bot then aims at the target itself
  if struck = 0 and lastActionError() = ActionTargetUnavailable and (px <> bestX or py <> bestY) then
    if d > rng * rng then exit sub
    frame(bestX, bestY)
    struck = castPoint(a, fx, fy)
  end if
end sub

sub spells()
  for k = 0 to 3
    prioritySlot(k)
    a = slot
    canCast(a)
    if castable then
      ak = selfClass * 4 + a
      if abilityRestore(a) > 0 then
        if selfMana + abilityRestore(a) <= selfMaxMana then ok = castTarget(a, selfId)
      elseif abilityHeal(a) > 0 then
        if abCast(ak) = 1 then
          if selfHp + abilityHeal(a) <= selfMaxHp then ok = castTarget(a, selfId)
        elseif wounded <> 0 and woundedPm < 700 then
          if abAnchor(ak) = 1 then
            r = abRadius(ak)
            if (woundedX - sx) * (woundedX - sx) + (woundedY - sy) * (woundedY - sy) <= r * r then
              ok = castPoint(a, selfX, selfY)
            end if
          else
            frame(woundedX, woundedY)
            ok = castPoint(a, fx, fy)
          end if
        end if
      elseif best <> 0 then
        hero = bestKind = 2
        building = bestKind = 1 or bestKind = 4 or bestKind = 5
        skip = 0
        if a = 1 and abilityCharges(1) < 2 and not (hero and bestHp <= abilityDamage(a)) then skip = 1
        if hero = 0 and skip = 0 then
          farm = (a = 1 and abilityCharges(1) = 3 and selfMana * 10 > selfMaxMana * 6)
          farm = farm or (a = 0 and abilityManaCost(0) = 0) or (building and selfMana * 10 > selfMaxMana * 7)
          if farm = 0 or (abCast(ak) = 4 and building = 0) then skip = 1
        end if
        if skip = 0 then strike(a)
      end if
    end if
  next
end sub

' use the first slot holding `id` when its potion cooldown is over (used = 1)
sub useReady(id)
  findItem(id)
  used = 0
  if found >= 0 then
    if itemCooldown(found) = 0 then used = useItem(found)
  end if
end sub

sub potions()
  calm = heroNear = 0 and towerAggro = 0
  used = 0
  if hpPm < 350 then useReady(2)
  if used = 0 and hpPm < 550 and calm then useReady(1)
  used = 0
  if manaPm < 250 then useReady(3)
  if used = 0 and manaPm < 400 and calm then useReady(22)
  if targetHeroInReach then useReady(4)
end sub

' in the keep: boots, 2 health potions, 2 scrolls, 2 mana potions, then the role's item and consumable
sub shop()
  if canShop() = 0 then exit sub
  gold = selfGold
  findItem(8)
  if found < 0 then
    buy(8, 1)
    if bought = 0 then exit sub
  end if
  for k = 0 to 2
    id = 1
    if k = 1 then id = 21
    if k = 2 then id = 22
    stock(id)
    if bought = 0 then exit sub
  next
  item = 20: extra = 3
  if role = 0 then
    item = 16: extra = 2
  elseif role = 1 then
    item = 19: extra = 4
  elseif role = 4 then
    item = 18: extra = 2
  end if
  findItem(item)
  if found < 0 then
    buy(item, 1)
    if bought = 0 then exit sub
  end if
  stock(extra)
end sub

' hold two of consumable `id` (bought = 0 when a purchase fails: stop shopping)
sub stock(id)
  countItem(id)
  bought = 1
  do while count < 2 and bought
    buy(id, 0)
    count = count + 1
  loop
end sub

' just behind the own lane's wave, else the lane's front tower, else the guard
sub laneGoal()
  wantLane = myLane
  if selfLevel >= 6 then wantLane = 1
  if front <> 0 then
    away(frontX, frontY, 115 - godX, 115 - godY, 1)
    goalX = awayX: goalY = awayY
  elseif laneFrontD(wantLane) >= 0 then
    goalX = laneFrontX(wantLane): goalY = laneFrontY(wantLane)
  else
    goalX = guardX(0): goalY = guardY(0)
  end if
end sub

sub tryPull()
  pulled = 0
  if mode = 2 then
    if worldTick > modeUntil or front = 0 then
      mode = 0
      exit sub
    end if
    if neutralOnMe <> 0 then
      move(1, frontX, frontY)
      pulled = 1
    elseif neutralNear <> 0 then
      attack(neutralNear)
      pulled = 1
    else
      mode = 0
    end if
    exit sub
  end if
  if selfLevel < 3 or heroNear <> 0 or hpPm < 700 or neutralNear = 0 or front = 0 or bestScore >= 450 then exit sub
  if (neutralX - frontX) * (neutralX - frontX) + (neutralY - frontY) * (neutralY - frontY) > 81 then exit sub
  mode = 2
  modeUntil = worldTick + 240
  attack(neutralNear)
  pulled = 1
end sub

' ---- the decision ----
if drafting then
  if draftTurnId = selfId then draft()
  end
end if

seat = selfId - 100
track()
if (worldTick + seat) mod 6 <> 0 then end
selfMoving = 0
for i = heroBase to heroBase + 4
  if objectId(i) = selfId then selfMoving = objectVelX(i) <> 0 or objectVelY(i) <> 0
next

spendPoints()
if selfHp <= 0 then
  order = 0: walking = 0: mode = 0   ' a respawn clears the orders
  if buybackPrice() > 0 and selfGold >= buybackPrice() and selfRespawnTicks > 120 then ok = buyback()
  end
end if
if initialized = 0 then
  initialized = 1
  setup()
end if
if selfChannelTicks > 0 or selfStunTicks > 0 then end

blue = selfTeam = 1
me = seat - 5 * selfTeam
frame(trk(25 + me), trk(30 + me))
sx = fx: sy = fy
hpPm = (selfHp * 1000) \ selfMaxHp
manaPm = 1000
if selfMaxMana > 0 then manaPm = (selfMana * 1000) \ selfMaxMana
perceive()

dodge()
if dodged then end
potions()
if hpPm < 250 or (caster and manaPm < 150 and selfLevel >= 3) then mode = 1
if mode = 1 then
  if inOwnSpawn() then
    shop()
    if hpPm >= 900 and manaPm >= 600 then
      mode = 0
    else
      end
    end if
  else
    findItem(21)
    far = (sx - homeX) * (sx - homeX) + (sy - homeY) * (sy - homeY) > 900
    if found >= 0 and far and selfPortalCooldown = 0 and selfRootTicks = 0 and (heroNear = 0 or heroNearD > 64) then
      frame(guardX(0), guardY(0))
      if useItemAt(found, fx, fy) then order = 0   ' the channel drops the order
    else
      move(1, homeX, homeY)
    end if
    spells()
    end
  end if
end if
spells()
if towerAggro <> 0 then
  creepsNear(aggroX, aggroY)
  if hpPm < 600 or near < 2 then
    away(sx, sy, aggroX, aggroY, 4)
    move(1, awayX, awayY)
    end
  end if
end if
if enemyNear >= 2 and enemyNear > allyNear and not (best <> 0 and bestScore >= 850) then
  if heroNear <> 0 then
    away(sx, sy, heroNearX, heroNearY, 5)
  else
    away(sx, sy, sx, sy, 5)
  end if
  move(1, awayX, awayY)
  end
end if
if melee = 0 and meleeThreat <> 0 and hpPm < 700 and worldTick >= modeUntil then
  away(sx, sy, threatX, threatY, 3)
  move(1, awayX, awayY)
  modeUntil = worldTick + 18
  end
end if
tryPull()
if pulled then end
if best <> 0 then
  attack(best)
  end
end if
shop()
if threat <> 0 then   ' defend the own buildings, all together
  move(2, defendX, defendY)
  end
end if
if selfLevel >= 6 then
  pushTarget()
  if front <> 0 and pushGod = 0 then
    laneGoal()
    move(2, goalX, goalY)
  else
    move(2, pushX, pushY)
  end if
else
  laneGoal()
  move(2, goalX, goalY)
end if
