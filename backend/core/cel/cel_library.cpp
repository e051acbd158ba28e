// The library functions of cel_functions.h: cel-go's strings extension (ext/strings.go: indices
// count code points; an offset past the end finds nothing, as cel-go now answers and cel-spec's
// string_ext conformance tests expect), the
// regular expression functions (RE2, linear time; Kubernetes' find/findAll follow Go's
// FindString/FindAllString), and Kubernetes' Quantity and Semver functions.
#include "core/cel/cel_functions.h"

#include "core/cel/cel_lexer.h"

#include <re2/re2.h>

#include <algorithm>
#include <limits>

namespace topodeck::cel {

namespace {

constexpr __int128 kNanosPerUnit = 1'000'000'000;

Value noOverload() {
    return Value::staticError("");
}

Value outOfRange(std::int64_t index) {
    return Value::error("index out of range: " + std::to_string(index));
}

// Byte offsets of each code point of `s`, and s.size() at the end.
std::vector<std::size_t> runeOffsets(std::string_view s) {
    std::vector<std::size_t> offsets;
    for (std::size_t i = 0; i < s.size();) {
        offsets.push_back(i);
        std::size_t length = 0;
        decodeUtf8(s, i, length);
        i += length;
    }
    offsets.push_back(s.size());
    return offsets;
}

std::int64_t runeIndexOf(const std::vector<std::size_t>& offsets, std::size_t byte) {
    return std::lower_bound(offsets.begin(), offsets.end(), byte) - offsets.begin();
}

bool isSpaceRune(std::uint32_t r) { // Go's unicode.IsSpace
    switch (r) {
    case '\t':
    case '\n':
    case '\v':
    case '\f':
    case '\r':
    case ' ':
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
        return true;
    default:
        return r >= 0x2000 && r <= 0x200A;
    }
}

std::string_view trimSpace(std::string_view s) {
    std::size_t begin = 0;
    while (begin < s.size()) {
        std::size_t length = 0;
        if (!isSpaceRune(decodeUtf8(s, begin, length))) break;
        begin += length;
    }
    std::size_t end = s.size();
    while (end > begin) {
        std::size_t start = end - 1;
        while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
        std::size_t length = 0;
        if (!isSpaceRune(decodeUtf8(s, start, length)) || start + length != end) break;
        end = start;
    }
    return s.substr(begin, end - begin);
}

Value indexOf(std::string_view s, std::string_view sub, std::int64_t offset, bool last) {
    const std::vector<std::size_t> offsets = runeOffsets(s);
    const auto runes = static_cast<std::int64_t>(offsets.size() - 1);
    if (sub.empty()) return Value::integer(offset);
    if (offset < 0) return outOfRange(offset);
    if (!last) {
        if (offset >= runes) return Value::integer(-1);
        const std::size_t at = s.find(sub, offsets[static_cast<std::size_t>(offset)]);
        return Value::integer(at == std::string_view::npos ? -1 : runeIndexOf(offsets, at));
    }
    if (offset >= runes) return Value::integer(-1);
    const auto subRunes = static_cast<std::int64_t>(codePointCount(sub));
    offset = std::min(offset, runes - subRunes);
    if (offset < 0) return Value::integer(-1);
    const std::size_t at = s.rfind(sub, offsets[static_cast<std::size_t>(offset)]);
    return Value::integer(at == std::string_view::npos ? -1 : runeIndexOf(offsets, at));
}

Value substring(const Value& str, std::int64_t start, std::optional<std::int64_t> end) {
    const std::string_view s = str.text();
    const std::vector<std::size_t> offsets = runeOffsets(s);
    const auto runes = static_cast<std::int64_t>(offsets.size() - 1);
    if (end && start > *end)
        return Value::error("invalid substring range. start: " + std::to_string(start) +
                            ", end: " + std::to_string(*end));
    if (start < 0 || start > runes) return outOfRange(start);
    if (end && (*end < 0 || *end > runes)) return outOfRange(*end);
    const std::size_t from = offsets[static_cast<std::size_t>(start)];
    const std::size_t to = end ? offsets[static_cast<std::size_t>(*end)] : s.size();
    return str.slice(s.substr(from, to - from));
}

Value charAt(const Value& str, std::int64_t index) {
    const std::string_view s = str.text();
    const std::vector<std::size_t> offsets = runeOffsets(s);
    const auto runes = static_cast<std::int64_t>(offsets.size() - 1);
    if (index < 0 || index > runes) return outOfRange(index);
    if (index == runes) return Value::string(std::string_view());
    const auto i = static_cast<std::size_t>(index);
    return str.slice(s.substr(offsets[i], offsets[i + 1] - offsets[i]));
}

Value asciiCase(std::string_view s, bool upper) {
    std::string out(s);
    for (char& c : out) {
        if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return Value::string(std::move(out));
}

// Go's strings.Replace: n < 0 replaces every match; an empty `from` matches before each rune and
// at the end.
Value replace(std::string_view s, std::string_view from, std::string_view to, std::int64_t n, Meter& meter) {
    if (n == 0 || from == to) return Value::string(std::string(s));
    std::vector<std::size_t> at;
    if (from.empty()) {
        at = runeOffsets(s);
    } else {
        for (std::size_t i = s.find(from); i != std::string_view::npos; i = s.find(from, i + from.size()))
            at.push_back(i);
    }
    if (n > 0 && static_cast<std::uint64_t>(n) < at.size()) at.resize(static_cast<std::size_t>(n));
    const std::uint64_t grown = at.size() * to.size();
    if (grown > at.size() * from.size() && !meter.spend((grown - at.size() * from.size()) / 10)) return noOverload();
    std::string out;
    out.reserve(s.size() + grown);
    std::size_t copied = 0;
    for (std::size_t i : at) {
        out.append(s.substr(copied, i - copied)).append(to);
        copied = i + from.size();
    }
    out.append(s.substr(std::min(copied, s.size())));
    return Value::string(std::move(out));
}

// Go's strings.SplitN: n == 0 gives no parts, n < 0 every part; an empty separator splits
// between runes (and "" into no parts).
Value split(const Value& str, std::string_view sep, std::int64_t n, Meter& meter) {
    const std::string_view s = str.text();
    auto parts = std::make_shared<ListData>();
    const auto add = [&](std::string_view part) {
        parts->items.push_back(str.slice(part));
        return meter.spend(1);
    };
    const std::size_t limit = n < 0 ? std::numeric_limits<std::size_t>::max() : static_cast<std::size_t>(n);
    std::size_t start = 0;
    if (n != 0 && sep.empty()) {
        while (start < s.size()) {
            if (parts->items.size() + 1 == limit) {
                add(s.substr(start));
                break;
            }
            std::size_t length = 0;
            decodeUtf8(s, start, length);
            if (!add(s.substr(start, length))) return noOverload();
            start += length;
        }
    } else if (n != 0) {
        while (parts->items.size() + 1 < limit) {
            const std::size_t next = s.find(sep, start);
            if (next == std::string_view::npos) break;
            if (!add(s.substr(start, next - start))) return noOverload();
            start = next + sep.size();
        }
        add(s.substr(start));
    }
    return Value::list(std::shared_ptr<const ListData>(std::move(parts)));
}

Value join(const Value& list, std::string_view sep) {
    std::string out;
    const auto& items = list.asList().items;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].kind() != Kind::String)
            return Value::staticError("join: the list holds a value that is not a string");
        if (i > 0) out += sep;
        out += items[i].text();
    }
    return Value::string(std::move(out));
}

Value stringsExtension(Fn fn, std::span<const Value> args, CallContext& context) {
    const auto kindAt = [&](std::size_t i) { return i < args.size() ? args[i].kind() : Kind::Null; };
    if (fn == Fn::Join) {
        if (kindAt(0) != Kind::List || (args.size() == 2 && kindAt(1) != Kind::String)) return noOverload();
        return join(args[0], args.size() == 2 ? args[1].text() : std::string_view());
    }
    if (kindAt(0) != Kind::String) return noOverload();
    const std::string_view s = args[0].text();
    const auto intAt = [&](std::size_t i) { return kindAt(i) == Kind::Int; };
    const auto textAt = [&](std::size_t i) { return kindAt(i) == Kind::String; };
    switch (fn) {
    case Fn::Contains:
        return textAt(1) ? Value::boolean(s.find(args[1].text()) != std::string_view::npos) : noOverload();
    case Fn::StartsWith:
        return textAt(1) ? Value::boolean(s.starts_with(args[1].text())) : noOverload();
    case Fn::EndsWith:
        return textAt(1) ? Value::boolean(s.ends_with(args[1].text())) : noOverload();
    case Fn::CharAt:
        return intAt(1) ? charAt(args[0], args[1].asInt()) : noOverload();
    case Fn::IndexOf:
    case Fn::LastIndexOf: {
        if (!textAt(1) || (args.size() == 3 && !intAt(2))) return noOverload();
        const bool last = fn == Fn::LastIndexOf;
        if (args.size() == 3) return indexOf(s, args[1].text(), args[2].asInt(), last);
        if (!last) return indexOf(s, args[1].text(), 0, false);
        const auto runes = static_cast<std::int64_t>(codePointCount(s));
        if (args[1].text().empty()) return Value::integer(runes);
        return runes == 0 ? Value::integer(-1) : indexOf(s, args[1].text(), runes - 1, true);
    }
    case Fn::LowerAscii:
        return asciiCase(s, false);
    case Fn::UpperAscii:
        return asciiCase(s, true);
    case Fn::Trim:
        return args[0].slice(trimSpace(s));
    case Fn::Replace:
        if (!textAt(1) || !textAt(2) || (args.size() == 4 && !intAt(3))) return noOverload();
        return replace(s, args[1].text(), args[2].text(), args.size() == 4 ? args[3].asInt() : -1, context.meter);
    case Fn::Split:
        if (!textAt(1) || (args.size() == 3 && !intAt(2))) return noOverload();
        return split(args[0], args[1].text(), args.size() == 3 ? args[2].asInt() : -1, context.meter);
    case Fn::Substring:
        if (!intAt(1) || (args.size() == 3 && !intAt(2))) return noOverload();
        return substring(args[0], args[1].asInt(),
                         args.size() == 3 ? std::optional<std::int64_t>(args[2].asInt()) : std::nullopt);
    default:
        return noOverload();
    }
}

// ---- Regular expressions ----

Value regexFunction(Fn fn, std::span<const Value> args, CallContext& context) {
    if (args.size() < 2 || args[0].kind() != Kind::String || args[1].kind() != Kind::String) return noOverload();
    if (args.size() == 3 && args[2].kind() != Kind::Int) return noOverload();
    const RE2* re = context.regex;
    std::shared_ptr<const RE2> compiled;
    if (!re) {
        std::string problem;
        compiled = compileRegex(args[1].text(), problem);
        if (!compiled) return Value::error("invalid regular expression " + shortDisplay(args[1]) + ": " + problem);
        re = compiled.get();
    }
    const std::string_view text = args[0].text();
    if (fn == Fn::Matches) return Value::boolean(RE2::PartialMatch(text, *re));
    re2::StringPiece match;
    if (fn == Fn::Find) {
        if (!re->Match(text, 0, text.size(), RE2::UNANCHORED, &match, 1)) return Value::string(std::string_view());
        return args[0].slice(std::string_view(match.data(), match.size()));
    }
    // findAll: successive non-overlapping matches; an empty match right after a match is skipped.
    const std::int64_t limit = args.size() == 3 ? args[2].asInt() : -1;
    auto found = std::make_shared<ListData>();
    std::size_t pos = 0;
    std::size_t previousEnd = std::string_view::npos;
    while (limit != 0 && pos <= text.size() && (limit < 0 || found->items.size() < static_cast<std::uint64_t>(limit))) {
        if (!re->Match(text, pos, text.size(), RE2::UNANCHORED, &match, 1)) break;
        const auto start = static_cast<std::size_t>(match.data() - text.data());
        const std::size_t end = start + match.size();
        std::size_t step = 1;
        if (start < text.size()) decodeUtf8(text, start, step);
        if (match.empty() && start == previousEnd) {
            pos = start + step;
            continue;
        }
        if (!context.meter.spend(1)) return noOverload();
        found->items.push_back(args[0].slice(std::string_view(match.data(), match.size())));
        previousEnd = end;
        pos = match.empty() ? start + step : end;
    }
    return Value::list(std::shared_ptr<const ListData>(std::move(found)));
}

// ---- Quantity and Semver ----

Value quantityFunction(Fn fn, std::span<const Value> args) {
    if (fn == Fn::QuantityOf || fn == Fn::IsQuantity) {
        if (args[0].kind() != Kind::String) return noOverload();
        Result<Quantity> q = Quantity::parse(args[0].text());
        if (fn == Fn::IsQuantity) return Value::boolean(q.ok());
        return q ? Value::quantity(*q) : Value::error(q.error().message);
    }
    if (args[0].kind() != Kind::Quantity) return noOverload();
    const Quantity& q = args[0].asQuantity();
    const __int128 nanos = q.nanos();
    const bool integral = nanos % kNanosPerUnit == 0 &&
                          nanos / kNanosPerUnit >= std::numeric_limits<std::int64_t>::min() &&
                          nanos / kNanosPerUnit <= std::numeric_limits<std::int64_t>::max();
    switch (fn) {
    case Fn::Sign:
        return Value::integer(nanos < 0 ? -1 : (nanos > 0 ? 1 : 0));
    case Fn::IsInteger:
        return Value::boolean(integral);
    case Fn::AsInteger:
        if (!integral) return Value::staticError("cannot convert value to integer");
        return Value::integer(static_cast<std::int64_t>(nanos / kNanosPerUnit));
    case Fn::AsApproximateFloat:
        return Value::real(
            static_cast<double>(static_cast<long double>(nanos) / static_cast<long double>(kNanosPerUnit)));
    case Fn::AddTo:
    case Fn::SubtractFrom: {
        Quantity other;
        if (args[1].kind() == Kind::Quantity)
            other = args[1].asQuantity();
        else if (args[1].kind() == Kind::Int)
            other = Quantity::fromUnits(args[1].asInt(), Quantity::Format::DecimalExponent);
        else
            return noOverload();
        return Value::quantity(fn == Fn::AddTo ? q + other : q - other);
    }
    default:
        return noOverload();
    }
}

Value compareFunction(Fn fn, const Value& a, const Value& b) {
    int c = 0;
    if (a.kind() == Kind::Quantity && b.kind() == Kind::Quantity) {
        const auto order = a.asQuantity() <=> b.asQuantity();
        c = order < 0 ? -1 : (order > 0 ? 1 : 0);
    } else if (a.kind() == Kind::Semver && b.kind() == Kind::Semver) {
        c = a.asSemver().compare(b.asSemver());
    } else {
        return noOverload();
    }
    if (fn == Fn::CompareTo) return Value::integer(c);
    return Value::boolean(fn == Fn::IsGreaterThan ? c > 0 : c < 0);
}

Value semverFunction(Fn fn, std::span<const Value> args) {
    if (fn == Fn::SemverOf || fn == Fn::IsSemver) {
        if (args[0].kind() != Kind::String || (args.size() == 2 && args[1].kind() != Kind::Bool)) return noOverload();
        const bool normalize = args.size() == 2 && args[1].asBool();
        Result<Version> v = normalize ? Version::parseNormalized(args[0].text()) : Version::parse(args[0].text());
        if (fn == Fn::IsSemver) return Value::boolean(v.ok());
        return v ? Value::semver(std::move(*v)) : Value::error(v.error().message);
    }
    if (args[0].kind() != Kind::Semver) return noOverload();
    const Version& v = args[0].asSemver();
    const std::uint64_t part = fn == Fn::Major ? v.major() : (fn == Fn::Minor ? v.minor() : v.patch());
    return Value::integer(static_cast<std::int64_t>(part)); // as Go's int64(uint64) does
}

} // namespace

std::shared_ptr<const RE2> compileRegex(std::string_view pattern, std::string& problem) {
    RE2::Options options;
    options.set_log_errors(false);
    auto re = std::make_shared<const RE2>(re2::StringPiece(pattern), options);
    if (re->ok()) return re;
    problem = re->error();
    return nullptr;
}

Value invokeLibrary(Fn fn, std::span<const Value> args, CallContext& context) {
    switch (fn) {
    case Fn::Matches:
    case Fn::Find:
    case Fn::FindAll:
        return regexFunction(fn, args, context);
    case Fn::QuantityOf:
    case Fn::IsQuantity:
    case Fn::Sign:
    case Fn::IsInteger:
    case Fn::AsInteger:
    case Fn::AsApproximateFloat:
    case Fn::AddTo:
    case Fn::SubtractFrom:
        return quantityFunction(fn, args);
    case Fn::IsGreaterThan:
    case Fn::IsLessThan:
    case Fn::CompareTo:
        return args.size() == 2 ? compareFunction(fn, args[0], args[1]) : noOverload();
    case Fn::SemverOf:
    case Fn::IsSemver:
    case Fn::Major:
    case Fn::Minor:
    case Fn::Patch:
        return semverFunction(fn, args);
    default:
        return stringsExtension(fn, args, context);
    }
}

} // namespace topodeck::cel
