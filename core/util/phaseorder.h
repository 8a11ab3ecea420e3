#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace fusiondiff {

// The names the report gives the phases of compared steps ("phase 1", "phase 2", ..., "whole
// trace", "not compared") in the order they are listed: by number, so that "phase 10" comes after
// "phase 2", the whole trace (a trace without steps) first and "not compared" last.
int64_t phaseOrder(std::string_view phase);

// A layer of a phase (OpFinding::phaseLayers) before another: by phase in that order, then index.
bool phaseLayerBefore(const std::pair<std::string, uint32_t>& a, const std::pair<std::string, uint32_t>& b);

} // namespace fusiondiff
