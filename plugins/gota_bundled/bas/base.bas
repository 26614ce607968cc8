' base.bas -- gota-arena's port of its C bot `base` (native/bots/bots_base.c,
' docs/bots.md) to GotA BASIC, written for this project from that bot's
' documented behaviour. One hero per copy; put it on all five seats.
'
' Draft: the first free class, in class order, whose role the team lacks.
' Every 6 ticks (staggered by seat, like the C bots), dead or alive: spend
' ability points R > W > E > Q. Alive and free to act: drink a health item
' under 60 % HP and a mana item under 40 % mana, poison the current target
' when it is in reach; in the keep stock a health potion and a poison potion,
' then buy class gear in order, saving up for the next piece; attack the
' nearest enemy the team sees (resting neutral camps are left alone); with
' none in sight walk to the map centre. The API has no "exposed" flag: a
' target the game refuses (a building still protected) is skipped for 5 s.
' Positions are whole tiles here (the C bot measures world units), so on a
' tie the current target is kept rather than switching back and forth.

dim hasRole(4), blockedId(7), blockedUntil(7), gear(7), cost(22)

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

' one pass over what the team sees: the two nearest usable enemies, and
' whether the current target is in reach
sub scan()
  sx = selfX: sy = selfY
  best = 0: bestD = 2147483647: second = 0: secondD = 2147483647
  targetInReach = 0
  n = objectCount()
  for i = 0 to n - 1
    if objectTeam(i) <> selfTeam then
      dx = objectX(i) - sx
      dy = objectY(i) - sy
      d = dx * dx + dy * dy
      id = objectId(i)
      kind = objectKind(i)
      if id = selfTarget then
        if kind = 1 or kind = 4 or kind = 5 then
          targetInReach = d <= buildingReach2
        else
          targetInReach = d <= reach2
        end if
        ' positions are whole tiles, so ties are common: keep the current target on a tie
        d = d - 1
      end if
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

sub attack(id)
  attacked = 0
  if selfTarget = id and walking = 0 then
    attacked = 1
    exit sub
  end if
  if attackTarget(id) then
    walking = 0
    attacked = 1
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
if (worldTick + seat) mod 6 <> 0 then end

if initialized = 0 then
  initialized = 1
  cost(1) = 30: cost(2) = 75: cost(3) = 90: cost(4) = 40: cost(5) = 80: cost(6) = 90: cost(7) = 70
  cost(8) = 100: cost(9) = 120: cost(10) = 120: cost(11) = 110: cost(12) = 140: cost(13) = 150
  cost(14) = 150: cost(15) = 140: cost(16) = 160: cost(17) = 170: cost(18) = 180: cost(19) = 180
  cost(20) = 190: cost(21) = 100: cost(22) = 45
  ' class gear: ranged, magic or melee, then buckler and amulet
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
  walking = 0   ' a respawn clears the orders
  end
end if
if selfChannelTicks > 0 or selfStunTicks > 0 then end

' reach in tiles, squared (a tile of slack: positions are whole tiles)
range = (selfAttackRange \ 100) / (worldScale \ 100)
reach2 = (range + 1) * (range + 1)
buildingReach2 = reach2
if range < 1.75 then buildingReach2 = 2.75 * 2.75

scan()
economy()
if best <> 0 then
  attack(best)
  if attacked = 0 and second <> 0 then attack(second)
  if attacked then end
end if
if walking = 0 then
  if walkTo(57.5, 57.5) then walking = 1
end if
