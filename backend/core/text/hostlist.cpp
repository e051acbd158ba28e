#include "core/text/hostlist.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace topodeck {

namespace {

constexpr std::uint64_t kMaxHostsPerRange = 65536;             // hostlist.c MAX_RANGE
// Keeps a typo from eating memory and time: 4 times the largest cluster topodeck models (the
// scale demo's 65,536 nodes), checked before names are made, not after.
constexpr std::size_t kMaxHostsPerList = HostlistBounds{}.hosts;
constexpr std::size_t kMaxNumberDigits = 19;                   // always fits an unsigned 64-bit value
// The names' bytes are bounded too: that many hosts of HOST_NAME_MAX (64) characters. A list of
// few but long names ("x{{{…}[2-4]…[2-4]") would otherwise take seconds and tens of MB.
constexpr std::size_t kMaxHostlistBytes = HostlistBounds{}.bytes;

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string formatNumber(std::uint64_t value, std::size_t width) {
    std::string digits = std::to_string(value);
    if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
    return digits;
}

Error hostlistError(std::string_view hostlist, std::string_view why) {
    return Error{"invalid hostlist \"" + std::string(hostlist) + "\": " + std::string(why)};
}

// "1-3,07,10-12" -> the numbers, formatted with the width of each range's low end; at most
// `limit` of them.
bool expandRanges(std::string_view text, std::vector<std::string>& out, std::size_t limit, std::string& why) {
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        const std::string_view item = text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
        const std::size_t dash = item.find('-');
        const std::string_view lo = item.substr(0, dash);
        const std::string_view hi = dash == std::string_view::npos ? lo : item.substr(dash + 1);
        const auto numeric = [](std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), isDigit); };
        if (!numeric(lo) || !numeric(hi)) {
            why = "invalid range '" + std::string(item) + "'";
            return false;
        }
        if (lo.size() > kMaxNumberDigits || hi.size() > kMaxNumberDigits) {
            why = "number too large in '" + std::string(item) + "'";
            return false;
        }
        const std::uint64_t low = std::stoull(std::string(lo));
        const std::uint64_t high = std::stoull(std::string(hi));
        if (high < low) {
            why = "invalid range '" + std::string(item) + "'";
            return false;
        }
        if (high - low + 1 > kMaxHostsPerRange) {
            why = "too many hosts in range '" + std::string(item) + "'";
            return false;
        }
        if (out.size() + (high - low + 1) > limit) {
            why = "too many hosts (more than " + std::to_string(limit) + ")";
            return false;
        }
        for (std::uint64_t n = low; n <= high; ++n) out.push_back(formatNumber(n, lo.size()));
        if (comma == std::string_view::npos) return true;
        start = comma + 1;
    }
}

// One entry without top-level separators: "gpu-[001-004]", "r[1-2]n[1-3]" or "login1", appended
// to `out` as long as it stays within `limit` names and `bytes` (the names' length so far)
// within `maxBytes`.
bool expandEntry(std::string_view entry, std::vector<std::string>& out, std::size_t& bytes, std::size_t limit,
                 std::size_t maxBytes, std::string& why) {
    std::vector<std::string> texts;               // P0, P1, ..., text between and before brackets
    std::vector<std::vector<std::string>> values; // the numbers of each bracket
    std::size_t pos = 0;
    while (true) {
        const std::size_t open = entry.find('[', pos);
        const std::size_t close = entry.find(']', pos);
        if (open == std::string_view::npos) {
            if (close != std::string_view::npos) {
                why = "unbalanced ']'";
                return false;
            }
            if (!values.empty() && pos < entry.size()) {
                // Slurm 22.05 rejects a suffix after the last bracket ("a[1-2]b").
                why = "text after the last ']'";
                return false;
            }
            texts.emplace_back(entry.substr(pos));
            break;
        }
        if (close != std::string_view::npos && close < open) {
            why = "unbalanced ']'";
            return false;
        }
        if (close == std::string_view::npos) {
            why = "missing ']'";
            return false;
        }
        if (entry.find('[', open + 1) < close) {
            why = "nested '['";
            return false;
        }
        texts.emplace_back(entry.substr(pos, open - pos));
        values.emplace_back();
        if (!expandRanges(entry.substr(open + 1, close - open - 1), values.back(), limit, why)) return false;
        pos = close + 1;
    }
    const auto tooMany = [&] {
        why = "too many hosts (more than " + std::to_string(limit) + ")";
        return false;
    };
    const auto tooLong = [&] {
        why = "the names it expands to are too long (more than " + std::to_string(maxBytes) + " bytes)";
        return false;
    };
    if (values.empty()) {
        if (out.size() >= limit) return tooMany();
        if (entry.size() > maxBytes - bytes) return tooLong();
        bytes += entry.size();
        out.emplace_back(entry);
        return true;
    }
    std::size_t total = 1;
    std::size_t nameLength = 0; // at most, with each bracket's longest number
    for (const std::string& text : texts) nameLength += text.size();
    for (const auto& v : values) {
        total *= v.size();
        if (total > limit - out.size()) return tooMany();
        std::size_t longest = 0;
        for (const std::string& number : v) longest = std::max(longest, number.size());
        nameLength += longest;
    }
    if (nameLength > 0 && total > (maxBytes - bytes) / nameLength) return tooLong();
    bytes += total * nameLength;
    // Slurm's order: the last bracket is the innermost loop; the others turn over like an
    // odometer read from the first bracket (fastest) to the last but one (slowest).
    const std::size_t k = values.size();
    std::vector<std::size_t> at(k, 0);
    for (std::size_t produced = 0; produced < total; ++produced) {
        std::string name;
        for (std::size_t i = 0; i < k; ++i) {
            name += texts[i];
            name += values[i][at[i]];
        }
        name += texts[k];
        out.push_back(std::move(name));
        if (++at[k - 1] < values[k - 1].size()) continue;
        at[k - 1] = 0;
        for (std::size_t i = 0; i + 1 < k; ++i) {
            if (++at[i] < values[i].size()) break;
            at[i] = 0;
        }
    }
    return true;
}

// A host name split as Slurm's hostname_create does: prefix + trailing number.
struct SplitName {
    std::string_view prefix;
    std::string_view digits; // empty when the name does not end in a number
    std::uint64_t value = 0;
};

SplitName splitName(std::string_view name) {
    std::size_t start = name.size();
    while (start > 0 && isDigit(name[start - 1])) --start;
    if (start == name.size() || name.size() - start > kMaxNumberDigits) return {name, {}, 0};
    const std::string_view digits = name.substr(start);
    return {name.substr(0, start), digits, std::stoull(std::string(digits))};
}

struct NumberRange {
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
    std::size_t width = 0; // expansion pads to the width of the low end as written
};

} // namespace

Result<std::vector<std::string>> expandHostlist(std::string_view hostlist, HostlistBounds bounds) {
    const std::size_t limit = std::min(bounds.hosts, kMaxHostsPerList);
    const std::size_t maxBytes = std::min(bounds.bytes, kMaxHostlistBytes);
    std::vector<std::string> names;
    std::size_t bytes = 0;
    std::string why;
    std::size_t start = 0;
    int depth = 0;
    for (std::size_t i = 0; i <= hostlist.size(); ++i) {
        const bool end = i == hostlist.size();
        if (!end && hostlist[i] == '[') ++depth;
        if (!end && hostlist[i] == ']') --depth;
        if (depth < 0) return hostlistError(hostlist, "unbalanced ']'");
        if (!end && (depth > 0 || (hostlist[i] != ',' && !isSpace(hostlist[i])))) continue;
        if (end && depth > 0) return hostlistError(hostlist, "missing ']'");
        if (i > start && !expandEntry(hostlist.substr(start, i - start), names, bytes, limit, maxBytes, why))
            return hostlistError(hostlist, why);
        start = i + 1;
    }
    return names;
}

Result<std::vector<std::string>> expandHostlistOfFile(std::string_view hostlist, HostlistBounds& left) {
    auto names = expandHostlist(hostlist, left);
    if (!names) {
        // Past the file's bound, or wrong by itself?
        if (auto alone = expandHostlist(hostlist))
            return Error{"the hostlists name more than " + std::to_string(kOneFileHostlistBounds.hosts) + " hosts or " +
                         std::to_string(kOneFileHostlistBounds.bytes >> 20) + " MiB of names in all (this one " +
                         std::to_string(alone->size()) + " hosts more)"};
        return names.error();
    }
    left.hosts -= names->size();
    for (const std::string& name : *names) left.bytes -= name.size();
    return names;
}

std::string compressHostlist(const std::vector<std::string>& names) {
    std::string out;
    std::size_t i = 0;
    while (i < names.size()) {
        const SplitName first = splitName(names[i]);
        if (!out.empty()) out += ',';
        if (first.digits.empty()) {
            out += names[i++];
            continue;
        }
        // A run of neighbours with the same prefix shares one bracket; a number joins the last
        // range when it follows it and prints the same with that range's padding.
        std::vector<NumberRange> ranges{{first.value, first.value, first.digits.size()}};
        std::size_t hosts = 1;
        for (++i; i < names.size(); ++i) {
            const SplitName next = splitName(names[i]);
            if (next.digits.empty() || next.prefix != first.prefix) break;
            NumberRange& last = ranges.back();
            if (next.value == last.hi + 1 && formatNumber(next.value, last.width) == next.digits)
                last.hi = next.value;
            else
                ranges.push_back({next.value, next.value, next.digits.size()});
            ++hosts;
        }
        out += first.prefix;
        if (hosts == 1) {
            out += first.digits;
            continue;
        }
        out += '[';
        for (std::size_t r = 0; r < ranges.size(); ++r) {
            if (r > 0) out += ',';
            out += formatNumber(ranges[r].lo, ranges[r].width);
            if (ranges[r].hi != ranges[r].lo) out += '-' + formatNumber(ranges[r].hi, ranges[r].width);
        }
        out += ']';
    }
    return out;
}

} // namespace topodeck
