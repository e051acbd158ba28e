#include "core/slurm/slurm_inventory.h"

#include "core/text/text_format.h"

#include <array>
#include <charconv>
#include <utility>

namespace topodeck {

namespace {

char upper(char c) {
    return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
}

bool equalsUpper(std::string_view text, std::string_view upperName) {
    if (text.size() != upperName.size()) return false;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (upper(text[i]) != upperName[i]) return false;
    return true;
}

template <std::size_t N> bool isOneOf(std::string_view text, const std::array<std::string_view, N>& names) {
    for (std::string_view name : names)
        if (equalsUpper(text, name)) return true;
    return false;
}

// sinfo's state suffixes: what each adds to the node.
std::uint32_t suffixFlag(char c) {
    switch (c) {
    case '*':
        return SlurmNode::NotResponding;
    case '~':
    case '%':
    case '!':
        return SlurmNode::PoweredDown;
    case '#':
        return SlurmNode::PoweringUp;
    case '$':
        return SlurmNode::Maintenance;
    case '@':
    case '^':
        return SlurmNode::Reboot;
    case '-':
        return SlurmNode::Planned;
    default:
        return 0;
    }
}

// One state word without '+' or suffixes.
bool addStateWord(SlurmNode& node, std::string_view word) {
    using B = SlurmNode::Base;
    const auto setBase = [&](B base) {
        node.base = base;
        return true;
    };
    const auto setBaseIfUnknown = [&](B base) {
        if (node.base == B::Unknown) node.base = base;
    };
    const auto addFlag = [&](std::uint32_t flag) {
        node.flags |= flag;
        return true;
    };
    if (isOneOf(word, std::array<std::string_view, 2>{"IDLE", "IDL"})) return setBase(B::Idle);
    if (isOneOf(word, std::array<std::string_view, 2>{"MIXED", "MIX"})) return setBase(B::Mixed);
    if (isOneOf(word, std::array<std::string_view, 2>{"ALLOCATED", "ALLOC"})) return setBase(B::Allocated);
    if (equalsUpper(word, "DOWN")) return setBase(B::Down);
    if (equalsUpper(word, "ERROR")) return setBase(B::Error);
    if (isOneOf(word, std::array<std::string_view, 2>{"FUTURE", "FUTR"})) return setBase(B::Future);
    if (isOneOf(word, std::array<std::string_view, 2>{"UNKNOWN", "UNK"})) return setBase(B::Unknown);

    if (equalsUpper(word, "DRAIN")) return addFlag(SlurmNode::Drain);
    // sinfo's long names say the base too: drained nodes are idle, draining ones busy.
    if (equalsUpper(word, "DRAINED")) {
        setBaseIfUnknown(B::Idle);
        return addFlag(SlurmNode::Drain);
    }
    if (isOneOf(word, std::array<std::string_view, 2>{"DRAINING", "DRNG"})) {
        setBaseIfUnknown(B::Allocated);
        return addFlag(SlurmNode::Drain);
    }
    if (isOneOf(word, std::array<std::string_view, 2>{"COMPLETING", "COMP"})) return addFlag(SlurmNode::Completing);
    if (isOneOf(word, std::array<std::string_view, 2>{"NOT_RESPONDING", "NO_RESPOND"}))
        return addFlag(SlurmNode::NotResponding);
    if (isOneOf(word, std::array<std::string_view, 2>{"RESERVED", "RESV"})) return addFlag(SlurmNode::Reserved);
    if (isOneOf(word, std::array<std::string_view, 2>{"MAINTENANCE", "MAINT"})) return addFlag(SlurmNode::Maintenance);
    if (isOneOf(word, std::array<std::string_view, 4>{"POWERED_DOWN", "POWER_DOWN", "POWERING_DOWN", "POW_DN"}))
        return addFlag(SlurmNode::PoweredDown);
    if (isOneOf(word, std::array<std::string_view, 3>{"POWERING_UP", "POWER_UP", "POW_UP"}))
        return addFlag(SlurmNode::PoweringUp);
    if (equalsUpper(word, "FAIL")) return addFlag(SlurmNode::Fail);
    if (isOneOf(word, std::array<std::string_view, 2>{"FAILING", "FAILG"})) {
        setBaseIfUnknown(B::Allocated);
        return addFlag(SlurmNode::Fail);
    }
    if (isOneOf(word, std::array<std::string_view, 2>{"PLANNED", "PLND"})) return addFlag(SlurmNode::Planned);
    if (isOneOf(word, std::array<std::string_view, 3>{"REBOOT_REQUESTED", "REBOOT_ISSUED", "REBOOT"}))
        return addFlag(SlurmNode::Reboot);
    if (equalsUpper(word, "CLOUD")) return addFlag(SlurmNode::Cloud);
    // Names Slurm prints that change nothing the model keeps.
    return isOneOf(word,
                   std::array<std::string_view, 13>{"INVALID", "UNDRAIN", "RESUME", "REBOOT_CANCELED", "REBOOT_CANCEL",
                                                    "CANCEL_REBOOT", "DYNAMIC_FUTURE", "DYNAMIC_NORM", "INVALID_REG",
                                                    "POWER_DRAIN", "BLOCKED", "EXTERNAL", "NET"});
}

// Parses a GRES count: digits with an optional K/M/G/T/P multiplier (Slurm's suffixes, 1024-based).
bool parseCount(std::string_view text, std::int64_t& out) {
    if (text.empty()) return false;
    std::int64_t multiplier = 1;
    switch (upper(text.back())) {
    case 'K':
        multiplier = 1024;
        break;
    case 'M':
        multiplier = 1024LL * 1024;
        break;
    case 'G':
        multiplier = 1024LL * 1024 * 1024;
        break;
    case 'T':
        multiplier = 1024LL * 1024 * 1024 * 1024;
        break;
    case 'P':
        multiplier = 1024LL * 1024 * 1024 * 1024 * 1024;
        break;
    default:
        break;
    }
    if (multiplier != 1) text.remove_suffix(1);
    if (text.empty()) return false;
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < 0) return false;
    // A count that does not fit 64 bits with its multiplier ("4444444444444G") is no count.
    std::int64_t count = 0;
    if (__builtin_mul_overflow(value, multiplier, &count)) return false;
    out = count;
    return true;
}

Error gresError(std::string_view entry, std::string_view why) {
    return Error{"invalid GRES entry \"" + std::string(entry) + "\": " + std::string(why)};
}

Result<SlurmGres> parseGresEntry(std::string_view entry) {
    SlurmGres gres;
    std::string_view spec = entry;
    // The detail is the parenthesised text at the end, "(S:0-1)"; "(null)" standing for a whole
    // type ("gpu:(null):0") follows a ':' instead.
    if (spec.back() == ')') {
        int depth = 0;
        std::size_t open = spec.size();
        for (std::size_t i = spec.size(); i-- > 0;) {
            if (spec[i] == ')') ++depth;
            if (spec[i] == '(' && --depth == 0) {
                open = i;
                break;
            }
        }
        if (open == spec.size()) return gresError(entry, "unbalanced ')'");
        if (open > 0 && spec[open - 1] != ':') {
            gres.detail = std::string(spec.substr(open + 1, spec.size() - open - 2));
            spec = trimWhitespace(spec.substr(0, open));
        }
    } else if (spec.find(')') != std::string_view::npos && spec.find("(null)") == std::string_view::npos) {
        return gresError(entry, "text after ')'");
    }
    std::vector<std::string_view> parts;
    while (true) {
        const std::size_t colon = spec.find(':');
        parts.push_back(spec.substr(0, colon));
        if (colon == std::string_view::npos) break;
        spec.remove_prefix(colon + 1);
    }
    if (parts.front().empty()) return gresError(entry, "no name");
    if (parts.size() > 3) return gresError(entry, "expected name[:type][:count]");
    gres.name = std::string(parts.front());
    gres.count = 1; // "gpu" and "gpu:h100" name one device
    std::string_view type;
    std::string_view count;
    if (parts.size() == 2) {
        // "gpu:8" or "gpu:h100" (or a MIG type such as "1g.10gb"): a count is a number with an
        // optional multiplier.
        std::int64_t ignored = 0;
        const bool numeric =
            !parts[1].empty() && parts[1].front() >= '0' && parts[1].front() <= '9' && parseCount(parts[1], ignored);
        (numeric ? count : type) = parts[1];
    } else if (parts.size() == 3) {
        type = parts[1];
        count = parts[2];
    }
    if (type != "(null)") gres.type = std::string(type);
    if (parts.size() == 3 && count.empty()) return gresError(entry, "empty count");
    if (!count.empty() && !parseCount(count, gres.count))
        return gresError(entry, "count \"" + std::string(count) + "\" is not a number");
    return gres;
}

} // namespace

bool addSlurmNodeState(SlurmNode& node, std::string_view name) {
    name = trimWhitespace(name);
    if (name.empty()) return false;
    bool known = true;
    while (!name.empty()) {
        const std::size_t plus = name.find('+');
        std::string_view word = name.substr(0, plus);
        name = plus == std::string_view::npos ? std::string_view() : name.substr(plus + 1);
        while (!word.empty() && suffixFlag(word.back()) != 0) {
            node.flags |= suffixFlag(word.back());
            word.remove_suffix(1);
        }
        if (word.empty()) continue; // a lone suffix
        known = addStateWord(node, word) && known;
    }
    return known;
}

std::string SlurmNode::stateName() const {
    const bool busy = base == Base::Allocated || base == Base::Mixed;
    if (has(Maintenance) && !has(Drain) && !busy && base != Base::Down) return "maint";
    if (has(Drain)) {
        if (has(Completing) || busy) return "draining";
        if (base == Base::Error) return "error";
        return "drained";
    }
    if (has(Fail)) return (has(Completing) || busy) ? "failing" : "fail";
    switch (base) {
    case Base::Down:
        return "down";
    case Base::Allocated:
        return has(Completing) ? "completing" : "allocated";
    case Base::Mixed:
        return has(Completing) ? "completing" : "mixed";
    case Base::Idle:
        if (has(Completing)) return "completing";
        if (has(Reserved)) return "reserved";
        if (has(Planned)) return "planned";
        return "idle";
    case Base::Future:
        return "future";
    case Base::Error:
        return "error";
    case Base::Unknown:
        break;
    }
    return "unknown";
}

bool SlurmNode::ready() const {
    if (base == Base::Down || base == Base::Error || base == Base::Future || base == Base::Unknown) return false;
    return !has(NotResponding) && !has(PoweredDown) && !has(Fail);
}

bool SlurmNode::schedulable() const {
    return ready() && !has(Drain) && !has(Maintenance) && !has(Reserved);
}

bool SlurmJob::holdsNodes() const {
    // CONFIGURING (booting its nodes), STOPPED (SIGSTOP, resources kept) and SIGNALING are
    // running jobs in squeue's words.
    return state == "RUNNING" || state == "SUSPENDED" || state == "COMPLETING" || state == "CONFIGURING" ||
           state == "STOPPED" || state == "SIGNALING" || state == "RESIZING";
}

Result<std::vector<SlurmGres>> parseGresList(std::string_view text) {
    std::vector<SlurmGres> list;
    text = trimWhitespace(text);
    if (text.empty() || text == "N/A" || text == "(null)") return list;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        const char c = i < text.size() ? text[i] : ',';
        if (c == '(') {
            ++depth;
        } else if (c == ')') {
            if (--depth < 0) return gresError(text, "unbalanced ')'");
        } else if (c == ',' && depth == 0) {
            const std::string_view entry = trimWhitespace(text.substr(start, i - start));
            start = i + 1;
            if (entry.empty()) continue;
            Result<SlurmGres> gres = parseGresEntry(entry);
            if (!gres) return gres.error();
            list.push_back(std::move(*gres));
        }
    }
    if (depth != 0) return gresError(text.substr(start), "missing ')'");
    return list;
}

std::int64_t gresGpuCount(const std::vector<SlurmGres>& gres) {
    std::int64_t typed = 0;
    std::int64_t untyped = 0;
    bool anyTyped = false;
    for (const SlurmGres& entry : gres) {
        if (entry.name != "gpu") continue;
        if (entry.type.empty()) {
            untyped += entry.count;
        } else {
            anyTyped = true;
            typed += entry.count;
        }
    }
    return anyTyped ? typed : untyped;
}

std::string gresGpuType(const std::vector<SlurmGres>& gres) {
    std::string type;
    for (const SlurmGres& entry : gres) {
        if (entry.name != "gpu" || entry.type.empty()) continue;
        if (type.empty()) {
            type = entry.type;
        } else if (type != entry.type) {
            return {};
        }
    }
    return type;
}

} // namespace topodeck
