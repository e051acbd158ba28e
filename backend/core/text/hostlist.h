#pragma once

#include "core/result.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// Slurm hostlists: "gpu-[001-004,007],login1" <-> the names, in order. Expansion follows Slurm's
// hostlist_create (22.05, checked with `scontrol show hostnames`): ',' or whitespace separate
// entries, a range keeps the zero padding of its low end, at most 65,536 hosts per range (and
// 262,144 in all: an expansion is bounded before it is made), text
// after the last ']' is invalid, and with several brackets the last one varies fastest and the
// others from the first (faster) to the last but one (slowest): r[1-2]n[1-3] -> r1n1 r1n2 r1n3
// r2n1 ... Errors quote the input. Compression merges neighbours with the same prefix the way
// `scontrol show hostlist` does, keeping the input order: "n9,n10,n09" -> "n[9-10,09]".
// `bounds` lowers them, for a file whose hostlists share one (a topology.conf).
struct HostlistBounds {
    std::size_t hosts = std::size_t{1} << 18;
    std::size_t bytes = std::size_t{16} << 20; // of all the names
};
Result<std::vector<std::string>> expandHostlist(std::string_view hostlist, HostlistBounds bounds = {});

// The bound the hostlists of one file share (a topology.conf, scontrol's answer), so that no text
// of a few hundred bytes expands to millions of names, or megabytes of them, over its lines; it
// is above the largest clusters (100,000 nodes of 32-character names, and their switches).
inline constexpr HostlistBounds kOneFileHostlistBounds{std::size_t{1} << 17, std::size_t{4} << 20};
// expandHostlist within what `left` of the file's bound remains, which it then lowers; past it,
// an error that says so.
Result<std::vector<std::string>> expandHostlistOfFile(std::string_view hostlist, HostlistBounds& left);
std::string compressHostlist(const std::vector<std::string>& names);

} // namespace topodeck
