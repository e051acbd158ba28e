#include "core/cel/cel_functions.h"

#include "core/cel/cel_lexer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace topodeck::cel {

namespace {

struct Named {
    std::string_view name;
    Fn fn;
};

constexpr Named kNames[] = {
    {"_==_", Fn::Equals},
    {"_!=_", Fn::NotEquals},
    {"_<_", Fn::Less},
    {"_<=_", Fn::LessEquals},
    {"_>_", Fn::Greater},
    {"_>=_", Fn::GreaterEquals},
    {"@in", Fn::In},
    {"_+_", Fn::Add},
    {"_-_", Fn::Subtract},
    {"_*_", Fn::Multiply},
    {"_/_", Fn::Divide},
    {"_%_", Fn::Modulo},
    {"size", Fn::Size},
    {"contains", Fn::Contains},
    {"startsWith", Fn::StartsWith},
    {"endsWith", Fn::EndsWith},
    {"matches", Fn::Matches},
    {"int", Fn::ToInt},
    {"uint", Fn::ToUint},
    {"double", Fn::ToDouble},
    {"string", Fn::ToString},
    {"bool", Fn::ToBool},
    {"bytes", Fn::ToBytes},
    {"dyn", Fn::Dyn},
    {"charAt", Fn::CharAt},
    {"indexOf", Fn::IndexOf},
    {"lastIndexOf", Fn::LastIndexOf},
    {"lowerAscii", Fn::LowerAscii},
    {"upperAscii", Fn::UpperAscii},
    {"replace", Fn::Replace},
    {"split", Fn::Split},
    {"substring", Fn::Substring},
    {"trim", Fn::Trim},
    {"join", Fn::Join},
    {"find", Fn::Find},
    {"findAll", Fn::FindAll},
    {"quantity", Fn::QuantityOf},
    {"isQuantity", Fn::IsQuantity},
    {"sign", Fn::Sign},
    {"isGreaterThan", Fn::IsGreaterThan},
    {"isLessThan", Fn::IsLessThan},
    {"compareTo", Fn::CompareTo},
    {"add", Fn::AddTo},
    {"sub", Fn::SubtractFrom},
    {"asInteger", Fn::AsInteger},
    {"asApproximateFloat", Fn::AsApproximateFloat},
    {"isInteger", Fn::IsInteger},
    {"semver", Fn::SemverOf},
    {"isSemver", Fn::IsSemver},
    {"major", Fn::Major},
    {"minor", Fn::Minor},
    {"patch", Fn::Patch},
};

// Functions of CEL, cel-go's extensions and Kubernetes' libraries that are not implemented here.
constexpr std::string_view kUnsupported[] = {
    "duration",
    "timestamp",
    "getFullYear",
    "getMonth",
    "getDayOfYear",
    "getDayOfMonth",
    "getDate",
    "getDayOfWeek",
    "getHours",
    "getMinutes",
    "getSeconds",
    "getMilliseconds",
    "type",
    "format",
    "reverse",
    "quote",
    "isSorted",
    "sum",
    "min",
    "max",
    "slice",
    "flatten",
    "sort",
    "sortBy",
    "distinct",
    "range",
    "url",
    "isURL",
    "getScheme",
    "getHost",
    "getHostname",
    "getPort",
    "getEscapedPath",
    "getQuery",
    "ip",
    "isIP",
    "cidr",
    "isCIDR",
    "containsIP",
    "containsCIDR",
    "family",
    "isCanonical",
    "isLoopback",
    "isUnspecified",
    "isLinkLocalMulticast",
    "isLinkLocalUnicast",
    "isGlobalUnicast",
    "masked",
    "prefixLength",
    "mul",
    "div",
    "divInt",
    "transformList",
    "transformMap",
    "transformMapEntry",
    "existsOne",
    "optMap",
    "optFlatMap",
    "hasValue",
    "value",
    "orValue",
    "or",
    "authorizer",
    "check",
    "path",
    "group",
    "serviceAccount",
    "resource",
    "subresource",
    "namespace",
    "name",
    "allowed",
    "reason",
    "errored",
    "error",
    "validate",
    "named",
    "image",
    "containerImage",
    "getProtocol",
};

using T = Ty;
constexpr Signature kSignatures[] = {
    {Fn::Add, true, false, 2, {T::Int, T::Int}, T::Int},
    {Fn::Add, true, false, 2, {T::Uint, T::Uint}, T::Uint},
    {Fn::Add, true, false, 2, {T::Double, T::Double}, T::Double},
    {Fn::Add, true, false, 2, {T::String, T::String}, T::String},
    {Fn::Add, true, false, 2, {T::Bytes, T::Bytes}, T::Bytes},
    {Fn::Add, true, false, 2, {T::List, T::List}, T::List},
    {Fn::Subtract, true, false, 2, {T::Int, T::Int}, T::Int},
    {Fn::Subtract, true, false, 2, {T::Uint, T::Uint}, T::Uint},
    {Fn::Subtract, true, false, 2, {T::Double, T::Double}, T::Double},
    {Fn::Multiply, true, false, 2, {T::Int, T::Int}, T::Int},
    {Fn::Multiply, true, false, 2, {T::Uint, T::Uint}, T::Uint},
    {Fn::Multiply, true, false, 2, {T::Double, T::Double}, T::Double},
    {Fn::Divide, true, false, 2, {T::Int, T::Int}, T::Int},
    {Fn::Divide, true, false, 2, {T::Uint, T::Uint}, T::Uint},
    {Fn::Divide, true, false, 2, {T::Double, T::Double}, T::Double},
    {Fn::Modulo, true, false, 2, {T::Int, T::Int}, T::Int},
    {Fn::Modulo, true, false, 2, {T::Uint, T::Uint}, T::Uint},
    {Fn::Size, true, true, 1, {T::String}, T::Int},
    {Fn::Size, true, true, 1, {T::Bytes}, T::Int},
    {Fn::Size, true, true, 1, {T::List}, T::Int},
    {Fn::Size, true, true, 1, {T::Map}, T::Int},
    {Fn::Contains, false, true, 2, {T::String, T::String}, T::Bool},
    {Fn::StartsWith, false, true, 2, {T::String, T::String}, T::Bool},
    {Fn::EndsWith, false, true, 2, {T::String, T::String}, T::Bool},
    {Fn::Matches, true, true, 2, {T::String, T::String}, T::Bool},
    {Fn::ToInt, true, false, 1, {T::Int}, T::Int},
    {Fn::ToInt, true, false, 1, {T::Uint}, T::Int},
    {Fn::ToInt, true, false, 1, {T::Double}, T::Int},
    {Fn::ToInt, true, false, 1, {T::String}, T::Int},
    {Fn::ToUint, true, false, 1, {T::Int}, T::Uint},
    {Fn::ToUint, true, false, 1, {T::Uint}, T::Uint},
    {Fn::ToUint, true, false, 1, {T::Double}, T::Uint},
    {Fn::ToUint, true, false, 1, {T::String}, T::Uint},
    {Fn::ToDouble, true, false, 1, {T::Int}, T::Double},
    {Fn::ToDouble, true, false, 1, {T::Uint}, T::Double},
    {Fn::ToDouble, true, false, 1, {T::Double}, T::Double},
    {Fn::ToDouble, true, false, 1, {T::String}, T::Double},
    {Fn::ToString, true, false, 1, {T::Int}, T::String},
    {Fn::ToString, true, false, 1, {T::Uint}, T::String},
    {Fn::ToString, true, false, 1, {T::Double}, T::String},
    {Fn::ToString, true, false, 1, {T::String}, T::String},
    {Fn::ToString, true, false, 1, {T::Bool}, T::String},
    {Fn::ToString, true, false, 1, {T::Bytes}, T::String},
    {Fn::ToBool, true, false, 1, {T::Bool}, T::Bool},
    {Fn::ToBool, true, false, 1, {T::String}, T::Bool},
    {Fn::ToBytes, true, false, 1, {T::Bytes}, T::Bytes},
    {Fn::ToBytes, true, false, 1, {T::String}, T::Bytes},
    {Fn::Dyn, true, false, 1, {T::Dyn}, T::Dyn},
    {Fn::CharAt, false, true, 2, {T::String, T::Int}, T::String},
    {Fn::IndexOf, false, true, 2, {T::String, T::String}, T::Int},
    {Fn::IndexOf, false, true, 3, {T::String, T::String, T::Int}, T::Int},
    {Fn::LastIndexOf, false, true, 2, {T::String, T::String}, T::Int},
    {Fn::LastIndexOf, false, true, 3, {T::String, T::String, T::Int}, T::Int},
    {Fn::LowerAscii, false, true, 1, {T::String}, T::String},
    {Fn::UpperAscii, false, true, 1, {T::String}, T::String},
    {Fn::Replace, false, true, 3, {T::String, T::String, T::String}, T::String},
    {Fn::Replace, false, true, 4, {T::String, T::String, T::String, T::Int}, T::String},
    {Fn::Split, false, true, 2, {T::String, T::String}, T::List, T::String},
    {Fn::Split, false, true, 3, {T::String, T::String, T::Int}, T::List, T::String},
    {Fn::Substring, false, true, 2, {T::String, T::Int}, T::String},
    {Fn::Substring, false, true, 3, {T::String, T::Int, T::Int}, T::String},
    {Fn::Trim, false, true, 1, {T::String}, T::String},
    {Fn::Join, false, true, 1, {T::List}, T::String},
    {Fn::Join, false, true, 2, {T::List, T::String}, T::String},
    {Fn::Find, false, true, 2, {T::String, T::String}, T::String},
    {Fn::FindAll, false, true, 2, {T::String, T::String}, T::List, T::String},
    {Fn::FindAll, false, true, 3, {T::String, T::String, T::Int}, T::List, T::String},
    {Fn::QuantityOf, true, false, 1, {T::String}, T::Quantity},
    {Fn::IsQuantity, true, false, 1, {T::String}, T::Bool},
    {Fn::Sign, true, true, 1, {T::Quantity}, T::Int},
    {Fn::IsGreaterThan, false, true, 2, {T::Quantity, T::Quantity}, T::Bool},
    {Fn::IsGreaterThan, false, true, 2, {T::Semver, T::Semver}, T::Bool},
    {Fn::IsLessThan, false, true, 2, {T::Quantity, T::Quantity}, T::Bool},
    {Fn::IsLessThan, false, true, 2, {T::Semver, T::Semver}, T::Bool},
    {Fn::CompareTo, false, true, 2, {T::Quantity, T::Quantity}, T::Int},
    {Fn::CompareTo, false, true, 2, {T::Semver, T::Semver}, T::Int},
    {Fn::AddTo, false, true, 2, {T::Quantity, T::Quantity}, T::Quantity},
    {Fn::AddTo, false, true, 2, {T::Quantity, T::Int}, T::Quantity},
    {Fn::SubtractFrom, false, true, 2, {T::Quantity, T::Quantity}, T::Quantity},
    {Fn::SubtractFrom, false, true, 2, {T::Quantity, T::Int}, T::Quantity},
    {Fn::AsInteger, false, true, 1, {T::Quantity}, T::Int},
    {Fn::AsApproximateFloat, false, true, 1, {T::Quantity}, T::Double},
    {Fn::IsInteger, false, true, 1, {T::Quantity}, T::Bool},
    {Fn::SemverOf, true, false, 1, {T::String}, T::Semver},
    {Fn::SemverOf, true, false, 2, {T::String, T::Bool}, T::Semver},
    {Fn::IsSemver, true, false, 1, {T::String}, T::Bool},
    {Fn::IsSemver, true, false, 2, {T::String, T::Bool}, T::Bool},
    {Fn::Major, false, true, 1, {T::Semver}, T::Int},
    {Fn::Minor, false, true, 1, {T::Semver}, T::Int},
    {Fn::Patch, false, true, 1, {T::Semver}, T::Int},
};

std::uint64_t tenth(std::uint64_t n) { // ceil(n * StringTraversalCostFactor)
    return n / 10 + (n % 10 != 0 ? 1 : 0);
}

bool bothText(std::span<const Value> args) {
    return args.size() == 2 && args[0].kind() == args[1].kind() &&
           (args[0].kind() == Kind::String || args[0].kind() == Kind::Bytes);
}

// ---- Arithmetic with CEL's overflow rules ----

Value overflow() {
    return Value::staticError("integer overflow");
}

Value arithmetic(Fn fn, const Value& a, const Value& b, Meter& meter) {
    const Kind k = a.kind();
    if (k != b.kind()) return Value::staticError("");
    if (k == Kind::Int) {
        const std::int64_t x = a.asInt();
        const std::int64_t y = b.asInt();
        std::int64_t r = 0;
        switch (fn) {
        case Fn::Add:
            return __builtin_add_overflow(x, y, &r) ? overflow() : Value::integer(r);
        case Fn::Subtract:
            return __builtin_sub_overflow(x, y, &r) ? overflow() : Value::integer(r);
        case Fn::Multiply:
            return __builtin_mul_overflow(x, y, &r) ? overflow() : Value::integer(r);
        case Fn::Divide:
        case Fn::Modulo:
            if (y == 0) return Value::staticError(fn == Fn::Divide ? "division by zero" : "modulus by zero");
            if (x == std::numeric_limits<std::int64_t>::min() && y == -1)
                return fn == Fn::Divide ? overflow() : Value::integer(0);
            return Value::integer(fn == Fn::Divide ? x / y : x % y);
        default:
            break;
        }
    } else if (k == Kind::Uint) {
        const std::uint64_t x = a.asUint();
        const std::uint64_t y = b.asUint();
        std::uint64_t r = 0;
        switch (fn) {
        case Fn::Add:
            return __builtin_add_overflow(x, y, &r) ? Value::staticError("unsigned integer overflow")
                                                    : Value::uinteger(r);
        case Fn::Subtract:
            return __builtin_sub_overflow(x, y, &r) ? Value::staticError("unsigned integer overflow")
                                                    : Value::uinteger(r);
        case Fn::Multiply:
            return __builtin_mul_overflow(x, y, &r) ? Value::staticError("unsigned integer overflow")
                                                    : Value::uinteger(r);
        case Fn::Divide:
        case Fn::Modulo:
            if (y == 0) return Value::staticError(fn == Fn::Divide ? "division by zero" : "modulus by zero");
            return Value::uinteger(fn == Fn::Divide ? x / y : x % y);
        default:
            break;
        }
    } else if (k == Kind::Double && fn != Fn::Modulo) {
        const double x = a.asDouble();
        const double y = b.asDouble();
        switch (fn) {
        case Fn::Add:
            return Value::real(x + y);
        case Fn::Subtract:
            return Value::real(x - y);
        case Fn::Multiply:
            return Value::real(x * y);
        case Fn::Divide:
            return Value::real(x / y);
        default:
            break;
        }
    } else if (fn == Fn::Add && (k == Kind::String || k == Kind::Bytes)) {
        std::string joined;
        joined.reserve(a.text().size() + b.text().size());
        joined.append(a.text()).append(b.text());
        return k == Kind::String ? Value::string(std::move(joined)) : Value::bytes(std::move(joined));
    } else if (fn == Fn::Add && k == Kind::List) {
        const auto& x = a.asList().items;
        const auto& y = b.asList().items;
        if (!meter.spend(x.size() + y.size())) return Value::staticError("");
        auto joined = std::make_shared<ListData>();
        joined->items.reserve(x.size() + y.size());
        joined->items.insert(joined->items.end(), x.begin(), x.end());
        joined->items.insert(joined->items.end(), y.begin(), y.end());
        return Value::list(std::shared_ptr<const ListData>(std::move(joined)));
    }
    return Value::staticError("");
}

// ---- Conversions ----

constexpr double kTwo63 = 9223372036854775808.0;
constexpr double kTwo64 = 18446744073709551616.0;

Value conversionError(std::string_view what, const Value& v) {
    return Value::error("cannot convert " + shortDisplay(v) + " to " + std::string(what));
}

Value toInt(const Value& v) {
    switch (v.kind()) {
    case Kind::Int:
        return v;
    case Kind::Uint:
        if (v.asUint() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return Value::staticError("range error converting uint to int");
        return Value::integer(static_cast<std::int64_t>(v.asUint()));
    case Kind::Double: {
        const double d = v.asDouble();
        if (!(d > -kTwo63 && d < kTwo63)) return Value::staticError("range error converting double to int");
        return Value::integer(static_cast<std::int64_t>(d));
    }
    case Kind::String: {
        std::string_view s = v.text();
        if (!s.empty() && s.front() == '+') s.remove_prefix(1);
        std::int64_t out = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        if (s.empty() || ec != std::errc() || end != s.data() + s.size() ||
            (s.front() == '-' && v.text().front() == '+'))
            return conversionError("int", v);
        return Value::integer(out);
    }
    default:
        return Value::staticError("");
    }
}

Value toUint(const Value& v) {
    switch (v.kind()) {
    case Kind::Uint:
        return v;
    case Kind::Int:
        if (v.asInt() < 0) return Value::staticError("range error converting int to uint");
        return Value::uinteger(static_cast<std::uint64_t>(v.asInt()));
    case Kind::Double: {
        const double d = v.asDouble();
        if (!(d >= 0 && d < kTwo64)) return Value::staticError("range error converting double to uint");
        return Value::uinteger(static_cast<std::uint64_t>(d));
    }
    case Kind::String: {
        const std::string_view s = v.text();
        std::uint64_t out = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return conversionError("uint", v);
        return Value::uinteger(out);
    }
    default:
        return Value::staticError("");
    }
}

std::optional<double> parseDouble(std::string_view s) {
    bool negative = false;
    if (!s.empty() && (s.front() == '+' || s.front() == '-')) negative = s.front() == '-', s.remove_prefix(1);
    std::string lower;
    for (char c : s) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (lower == "inf" || lower == "infinity") return negative ? -HUGE_VAL : HUGE_VAL;
    if (lower == "nan") return std::nan("");
    double out = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || s.front() == '+' || s.front() == '-')
        return std::nullopt;
    return negative ? -out : out;
}

Value toDouble(const Value& v) {
    switch (v.kind()) {
    case Kind::Double:
        return v;
    case Kind::Int:
        return Value::real(static_cast<double>(v.asInt()));
    case Kind::Uint:
        return Value::real(static_cast<double>(v.asUint()));
    case Kind::String: {
        const std::optional<double> d = parseDouble(v.text());
        return d ? Value::real(*d) : conversionError("double", v);
    }
    default:
        return Value::staticError("");
    }
}

Value toStringValue(const Value& v) {
    switch (v.kind()) {
    case Kind::String:
        return v;
    case Kind::Int:
        return Value::string(std::to_string(v.asInt()));
    case Kind::Uint:
        return Value::string(std::to_string(v.asUint()));
    case Kind::Double:
        return Value::string(formatDouble(v.asDouble()));
    case Kind::Bool:
        return Value::string(std::string_view(v.asBool() ? "true" : "false"));
    case Kind::Bytes:
        if (invalidUtf8At(v.text()) != std::string_view::npos)
            return Value::staticError("invalid UTF-8 in bytes, cannot convert to string");
        return Value::string(std::string(v.text()));
    default:
        return Value::staticError("");
    }
}

Value toBool(const Value& v) {
    if (v.kind() == Kind::Bool) return v;
    if (v.kind() != Kind::String) return Value::staticError("");
    static constexpr std::string_view kTrue[] = {"1", "t", "T", "TRUE", "true", "True"};
    static constexpr std::string_view kFalse[] = {"0", "f", "F", "FALSE", "false", "False"};
    if (std::find(std::begin(kTrue), std::end(kTrue), v.text()) != std::end(kTrue)) return Value::boolean(true);
    if (std::find(std::begin(kFalse), std::end(kFalse), v.text()) != std::end(kFalse)) return Value::boolean(false);
    return conversionError("bool", v);
}

Value size(const Value& v) {
    switch (v.kind()) {
    case Kind::String:
        return Value::integer(static_cast<std::int64_t>(codePointCount(v.text())));
    case Kind::Bytes:
        return Value::integer(static_cast<std::int64_t>(v.text().size()));
    case Kind::List:
        return Value::integer(static_cast<std::int64_t>(v.asList().items.size()));
    default:
        if (v.isMapLike()) return Value::integer(static_cast<std::int64_t>(mapSize(v)));
        return Value::staticError("");
    }
}

Value contains(const Value& container, const Value& element, Meter& meter) {
    if (container.kind() == Kind::List) {
        for (const Value& item : container.asList().items) {
            if (equal(item, element, meter)) return Value::boolean(true);
            if (meter.exhausted()) return Value::staticError("");
        }
        return Value::boolean(false);
    }
    if (container.isMapLike()) {
        bool found = false;
        (void)mapFind(container, element, found);
        return Value::boolean(found);
    }
    return Value::staticError("");
}

} // namespace

Fn functionNamed(std::string_view name) {
    for (const Named& n : kNames)
        if (n.name == name) return n.fn;
    return Fn::None;
}

std::string_view functionName(Fn fn) {
    for (const Named& n : kNames)
        if (n.fn == fn) return n.name;
    return "?";
}

bool isKnownUnsupported(std::string_view name) {
    return std::find(std::begin(kUnsupported), std::end(kUnsupported), name) != std::end(kUnsupported);
}

std::span<const Signature> signaturesOf(Fn fn) {
    const auto first =
        std::find_if(std::begin(kSignatures), std::end(kSignatures), [fn](const Signature& s) { return s.fn == fn; });
    const auto last = std::find_if(first, std::end(kSignatures), [fn](const Signature& s) { return s.fn != fn; });
    return {first, last};
}

namespace {

// cel-go's cost of the call (runtimecost.go costCall, Kubernetes' library CostEstimator.CallCost).
std::uint64_t baseCallCost(Fn fn, std::span<const Value> args) {
    const auto sizeOf = [&](std::size_t i) { return i < args.size() ? costSize(args[i]) : 0; };
    switch (fn) {
    case Fn::Equals:
    case Fn::NotEquals:
        return tenth(std::min(sizeOf(0), sizeOf(1)));
    case Fn::Less:
    case Fn::LessEquals:
    case Fn::Greater:
    case Fn::GreaterEquals:
        return bothText(args) ? tenth(std::min(sizeOf(0), sizeOf(1))) : 1;
    case Fn::In:
        return args.size() == 2 && args[1].kind() == Kind::List ? sizeOf(1) : 1;
    case Fn::Add:
        return bothText(args) ? tenth(sizeOf(0) + sizeOf(1)) : 1;
    case Fn::StartsWith:
    case Fn::EndsWith:
    case Fn::QuantityOf:
    case Fn::IsQuantity:
    case Fn::LowerAscii:
    case Fn::UpperAscii:
    case Fn::Substring:
    case Fn::Trim:
    case Fn::IndexOf:
    case Fn::LastIndexOf:
        return tenth(sizeOf(0));
    case Fn::ToString:
    case Fn::ToBytes:
        return args.size() == 1 && (args[0].kind() == Kind::Bytes || args[0].kind() == Kind::String) ? tenth(sizeOf(0))
                                                                                                     : 1;
    case Fn::Contains:
        return tenth(sizeOf(0)) * tenth(sizeOf(1));
    case Fn::Matches:
    case Fn::Find:
    case Fn::FindAll:
        return tenth(1 + sizeOf(0)) * ((sizeOf(1) + 3) / 4); // RegexStringLengthCostFactor 0.25
    case Fn::Replace:
    case Fn::Split:
        return tenth(2 * sizeOf(0));
    case Fn::Join: {
        std::uint64_t total = 0; // the result's size: elements and separators
        if (!args.empty() && args[0].kind() == Kind::List) {
            for (const Value& item : args[0].asList().items) total += costSize(item);
            if (args.size() == 2 && !args[0].asList().items.empty())
                total += sizeOf(1) * (args[0].asList().items.size() - 1);
        }
        return tenth(2 * total);
    }
    default:
        return 1;
    }
}

} // namespace

std::uint64_t callCost(Fn fn, std::span<const Value> args) {
    std::uint64_t surcharge = 0; // for the device's maps, when the device is larger than the API allows
    for (const Value& arg : args) surcharge += scanSurcharge(arg);
    return surcharge + baseCallCost(fn, args);
}

Value noSuchOverload(std::string_view function, std::span<const Value> args) {
    std::string text = "no such overload: " + std::string(function) + "(";
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (i > 0) text += ", ";
        text += kindName(args[i].kind());
    }
    return Value::error(text + ")");
}

Value invoke(Fn fn, std::span<const Value> args, CallContext& context) {
    Value result = Value::staticError("");
    switch (fn) {
    case Fn::Equals:
    case Fn::NotEquals: {
        const bool same = equal(args[0], args[1], context.meter);
        result = Value::boolean(fn == Fn::Equals ? same : !same);
        break;
    }
    case Fn::Less:
    case Fn::LessEquals:
    case Fn::Greater:
    case Fn::GreaterEquals: {
        if (!orderable(args[0].kind(), args[1].kind())) break;
        const std::optional<int> c = compareOrdered(args[0], args[1]);
        const bool holds = c && (fn == Fn::Less         ? *c < 0
                                 : fn == Fn::LessEquals ? *c <= 0
                                 : fn == Fn::Greater    ? *c > 0
                                                        : *c >= 0);
        result = Value::boolean(holds);
        break;
    }
    case Fn::In:
        result = contains(args[1], args[0], context.meter);
        break;
    case Fn::Add:
    case Fn::Subtract:
    case Fn::Multiply:
    case Fn::Divide:
    case Fn::Modulo:
        result = arithmetic(fn, args[0], args[1], context.meter);
        break;
    case Fn::Size:
        result = size(args[0]);
        break;
    case Fn::ToInt:
        result = toInt(args[0]);
        break;
    case Fn::ToUint:
        result = toUint(args[0]);
        break;
    case Fn::ToDouble:
        result = toDouble(args[0]);
        break;
    case Fn::ToString:
        result = toStringValue(args[0]);
        break;
    case Fn::ToBool:
        result = toBool(args[0]);
        break;
    case Fn::ToBytes:
        if (args[0].kind() == Kind::Bytes)
            result = args[0];
        else if (args[0].kind() == Kind::String)
            result = Value::bytes(std::string(args[0].text()));
        break;
    case Fn::Dyn:
        result = args[0];
        break;
    default:
        result = invokeLibrary(fn, args, context);
        break;
    }
    if (context.meter.exhausted()) return Value::error("operation cancelled: actual cost limit exceeded", true);
    // An empty error is "no overload for these kinds".
    if (result.isError() && result.text().empty()) return noSuchOverload(functionName(fn), args);
    return result;
}

std::string formatDouble(double d) {
    if (std::isnan(d)) return "NaN";
    if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
    if (d == 0) return std::signbit(d) ? "-0" : "0";
    // The shortest digits that read back, then Go's %g layout: %e when the exponent is below -4
    // or at least 6 (the precision Go's shortest %g decides with), else %f.
    std::array<char, 64> buf{};
    const auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), d, std::chars_format::scientific);
    const std::string sci(buf.data(), ec == std::errc() ? end : buf.data());
    const std::size_t e = sci.find('e');
    const bool negative = sci.front() == '-';
    std::string digits;
    for (std::size_t i = negative ? 1 : 0; i < e; ++i)
        if (sci[i] != '.') digits += sci[i];
    int exponent = 0;
    std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+' ? 1 : 0), sci.data() + sci.size(), exponent);
    std::string out = negative ? "-" : "";
    if (exponent < -4 || exponent >= 6) {
        out += digits.substr(0, 1);
        if (digits.size() > 1) out += "." + digits.substr(1);
        out += exponent < 0 ? "e-" : "e+";
        const int magnitude = std::abs(exponent);
        if (magnitude < 10) out += '0';
        out += std::to_string(magnitude);
        return out;
    }
    if (exponent < 0) return out + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    const auto point = static_cast<std::size_t>(exponent + 1);
    if (digits.size() <= point) return out + digits + std::string(point - digits.size(), '0');
    return out + digits.substr(0, point) + "." + digits.substr(point);
}

} // namespace topodeck::cel
