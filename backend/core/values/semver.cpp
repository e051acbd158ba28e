#include "core/values/semver.h"

#include <algorithm>
#include <charconv>
#include <optional>

namespace topodeck {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

bool isAlphanumeric(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}

bool allDigits(std::string_view s) {
    return std::all_of(s.begin(), s.end(), isDigit);
}

bool allAlphanumeric(std::string_view s) {
    return std::all_of(s.begin(), s.end(), isAlphanumeric);
}

bool hasLeadingZero(std::string_view s) {
    return s.size() > 1 && s.front() == '0';
}

Error failure(std::string_view input, std::string_view reason) {
    constexpr std::size_t kMaxShown = 64;
    std::string text = "invalid semantic version \"";
    text += input.substr(0, kMaxShown);
    if (input.size() > kMaxShown) text += "...";
    text += "\": ";
    text += reason;
    return Error{std::move(text)};
}

std::string quoted(std::string_view part) {
    constexpr std::size_t kMaxShown = 32;
    std::string text = "\"";
    text += part.substr(0, kMaxShown);
    if (part.size() > kMaxShown) text += "...";
    return text + "\"";
}

// A decimal number of the version core; nullopt with `reason` set when it is not one.
std::optional<std::uint64_t> coreNumber(std::string_view part, std::string_view what, std::string& reason) {
    if (part.empty()) {
        reason = std::string(what) + " number is empty";
        return std::nullopt;
    }
    if (!allDigits(part)) {
        reason = "invalid character(s) in " + std::string(what) + " number " + quoted(part);
        return std::nullopt;
    }
    if (hasLeadingZero(part)) {
        reason = std::string(what) + " number must not contain leading zeroes " + quoted(part);
        return std::nullopt;
    }
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (error != std::errc() || end != part.data() + part.size()) {
        reason = std::string(what) + " number " + quoted(part) + " does not fit 64 bits";
        return std::nullopt;
    }
    return value;
}

// Splits on '.', keeping empty parts (as Go's strings.Split does).
std::vector<std::string_view> splitDots(std::string_view text) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t dot = text.find('.'); dot != std::string_view::npos; dot = text.find('.', start)) {
        parts.push_back(text.substr(start, dot - start));
        start = dot + 1;
    }
    parts.push_back(text.substr(start));
    return parts;
}

} // namespace

Result<Version> Version::parse(std::string_view text) {
    std::string reason;
    std::optional<Version> v = parseStrict(text, reason);
    if (!v) return failure(text, reason);
    return std::move(*v);
}

std::optional<Version> Version::parseStrict(std::string_view text, std::string& reason) {
    const auto fail = [&reason](std::string why) -> std::optional<Version> {
        reason = std::move(why);
        return std::nullopt;
    };
    if (text.empty()) return fail("the version is empty");
    // MAJOR.MINOR.rest, where rest is PATCH[-pre][+build].
    const std::size_t dot1 = text.find('.');
    const std::size_t dot2 = dot1 == std::string_view::npos ? dot1 : text.find('.', dot1 + 1);
    if (dot2 == std::string_view::npos) return fail("no MAJOR.MINOR.PATCH elements found");
    Version v;
    const auto major = coreNumber(text.substr(0, dot1), "major", reason);
    if (!major) return std::nullopt;
    const auto minor = coreNumber(text.substr(dot1 + 1, dot2 - dot1 - 1), "minor", reason);
    if (!minor) return std::nullopt;
    std::string_view rest = text.substr(dot2 + 1);
    std::string_view build;
    bool hasBuild = false;
    if (const std::size_t plus = rest.find('+'); plus != std::string_view::npos) {
        build = rest.substr(plus + 1);
        rest = rest.substr(0, plus);
        hasBuild = true;
    }
    std::string_view pre;
    bool hasPre = false;
    if (const std::size_t dash = rest.find('-'); dash != std::string_view::npos) {
        pre = rest.substr(dash + 1);
        rest = rest.substr(0, dash);
        hasPre = true;
    }
    const auto patch = coreNumber(rest, "patch", reason);
    if (!patch) return std::nullopt;
    v.m_major = *major;
    v.m_minor = *minor;
    v.m_patch = *patch;
    if (hasPre) {
        for (std::string_view id : splitDots(pre)) {
            if (id.empty()) return fail("a pre-release identifier is empty");
            if (!allAlphanumeric(id)) return fail("invalid character(s) in pre-release " + quoted(id));
            PreRelease item;
            if (allDigits(id)) {
                if (hasLeadingZero(id))
                    return fail("numeric pre-release identifier must not contain leading zeroes " + quoted(id));
                const auto number = coreNumber(id, "pre-release", reason);
                if (!number) return std::nullopt;
                item.numeric = true;
                item.number = *number;
            } else {
                item.text = std::string(id);
            }
            v.suffix().pre.push_back(std::move(item));
        }
    }
    if (hasBuild) {
        for (std::string_view id : splitDots(build)) {
            if (id.empty()) return fail("a build metadata identifier is empty");
            if (!allAlphanumeric(id)) return fail("invalid character(s) in build metadata " + quoted(id));
            v.suffix().build.emplace_back(id);
        }
    }
    return v;
}

Result<Version> Version::parseNormalized(std::string_view text) {
    std::string_view s = text;
    if (!s.empty() && s.front() == 'v') s.remove_prefix(1);
    // Up to three parts: MAJOR, MINOR and the rest; each loses its leading zeros.
    std::vector<std::string> parts;
    for (int i = 0; i < 2; ++i) {
        const std::size_t dot = s.find('.');
        if (dot == std::string_view::npos) break;
        parts.emplace_back(s.substr(0, dot));
        s.remove_prefix(dot + 1);
    }
    parts.emplace_back(s);
    for (std::string& part : parts) {
        if (part.size() <= 1) continue;
        const std::size_t first = part.find_first_not_of('0');
        part = first == std::string::npos ? std::string() : part.substr(first);
        if (part.empty() || !isDigit(part.front())) part.insert(part.begin(), '0');
    }
    if (parts.size() < 3) {
        if (parts.back().find_first_of("+-") != std::string::npos)
            return failure(text, "a short version cannot contain a pre-release or build metadata");
        while (parts.size() < 3) parts.emplace_back("0");
    }
    std::string reason;
    std::optional<Version> parsed = parseStrict(parts[0] + "." + parts[1] + "." + parts[2], reason);
    if (!parsed) return failure(text, reason);
    return std::move(*parsed);
}

Version::Version(const Version& other)
    : m_major(other.m_major), m_minor(other.m_minor), m_patch(other.m_patch),
      m_suffix(other.m_suffix ? std::make_unique<Suffix>(*other.m_suffix) : nullptr) {}

Version& Version::operator=(const Version& other) {
    if (this != &other) *this = Version(other);
    return *this;
}

Version::Suffix& Version::suffix() {
    if (!m_suffix) m_suffix = std::make_unique<Suffix>();
    return *m_suffix;
}

const std::vector<Version::PreRelease>& Version::preRelease() const {
    static const std::vector<PreRelease> none;
    return m_suffix ? m_suffix->pre : none;
}

const std::vector<std::string>& Version::build() const {
    static const std::vector<std::string> none;
    return m_suffix ? m_suffix->build : none;
}

int Version::compare(const Version& other) const {
    const auto order = [](std::uint64_t a, std::uint64_t b) { return a < b ? -1 : (a > b ? 1 : 0); };
    const std::vector<PreRelease>& pre = preRelease();
    const std::vector<PreRelease>& otherPre = other.preRelease();
    if (int c = order(m_major, other.m_major)) return c;
    if (int c = order(m_minor, other.m_minor)) return c;
    if (int c = order(m_patch, other.m_patch)) return c;
    // A version without a pre-release ranks above one with.
    if (pre.empty() || otherPre.empty()) return pre.empty() == otherPre.empty() ? 0 : (pre.empty() ? 1 : -1);
    const std::size_t common = std::min(pre.size(), otherPre.size());
    for (std::size_t i = 0; i < common; ++i) {
        const PreRelease& a = pre[i];
        const PreRelease& b = otherPre[i];
        if (a.numeric != b.numeric) return a.numeric ? -1 : 1; // numeric identifiers rank lower
        if (a.numeric) {
            if (int c = order(a.number, b.number)) return c;
        } else if (int c = a.text.compare(b.text)) {
            return c < 0 ? -1 : 1;
        }
    }
    return order(pre.size(), otherPre.size());
}

std::string Version::toString() const {
    const std::vector<PreRelease>& pre = preRelease();
    const std::vector<std::string>& buildIds = build();
    std::string text = std::to_string(m_major) + '.' + std::to_string(m_minor) + '.' + std::to_string(m_patch);
    for (std::size_t i = 0; i < pre.size(); ++i) {
        text += i == 0 ? '-' : '.';
        text += pre[i].numeric ? std::to_string(pre[i].number) : pre[i].text;
    }
    for (std::size_t i = 0; i < buildIds.size(); ++i) {
        text += i == 0 ? '+' : '.';
        text += buildIds[i];
    }
    return text;
}

} // namespace topodeck
