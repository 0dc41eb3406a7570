-- blockref_forceload: keep the board area generated and loaded while nobody is online.
--
-- Without a player nearby Minetest unloads (or never generates) the map, and the pycraft API then
-- reads the board as air. Settings (minetest.conf), in Minetest coordinates:
--   blockref_area = x1,y1,z1,x2,y2,z2     the cuboid to emerge and force-load
--   blockref_ready_file = PATH           written once the whole area is generated and loaded

local area = minetest.settings:get("blockref_area")
local ready_file = minetest.settings:get("blockref_ready_file")

local function corners(text)
	local c = {}
	for number in text:gmatch("-?%d+") do
		c[#c + 1] = tonumber(number)
	end
	if #c ~= 6 then
		error("blockref_area must be six integers x1,y1,z1,x2,y2,z2, got " .. text)
	end
	return {x = math.min(c[1], c[4]), y = math.min(c[2], c[5]), z = math.min(c[3], c[6])},
		{x = math.max(c[1], c[4]), y = math.max(c[2], c[5]), z = math.max(c[3], c[6])}
end

local function forceload(low, high)
	local count = 0
	for bx = math.floor(low.x / 16), math.floor(high.x / 16) do
		for by = math.floor(low.y / 16), math.floor(high.y / 16) do
			for bz = math.floor(low.z / 16), math.floor(high.z / 16) do
				if minetest.forceload_block({x = bx * 16, y = by * 16, z = bz * 16}, true) then
					count = count + 1
				end
			end
		end
	end
	return count
end

if area then
	local low, high = corners(area)
	minetest.after(0, function()
		minetest.emerge_area(low, high, function(_, _, remaining)
			if remaining > 0 then
				return
			end
			local count = forceload(low, high)
			minetest.log("action", "[blockref_forceload] " .. count .. " map blocks force-loaded")
			if ready_file then
				local file = io.open(ready_file, "w")
				if file then
					file:write(count .. "\n")
					file:close()
				end
			end
		end)
	end)
end
