#include "core/cel/cel_value.h"

#include "core/cel/cel_functions.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace topodeck::cel {

// ---- The device view ----

QualifiedName splitQualifiedName(std::string_view name, std::string_view driver) {
    const std::size_t slash = name.find('/');
    if (slash == std::string_view::npos) return {driver, name};
    return {name.substr(0, slash), name.substr(slash + 1)};
}

const DeviceAttribute* findAttribute(const DeviceView& device, std::string_view domain, std::string_view id) {
    for (const DeviceAttribute& a : device.attributes)
        if (nameIs(a.name, device.driver, domain, id)) return &a;
    return nullptr;
}

const DeviceCapacity* findCapacity(const DeviceView& device, std::string_view domain, std::string_view id) {
    for (const DeviceCapacity& c : device.capacity)
        if (nameIs(c.name, device.driver, domain, id)) return &c;
    return nullptr;
}

// ---- Values ----

std::string_view kindName(Kind kind) {
    switch (kind) {
    case Kind::Null:
        return "null_type";
    case Kind::Bool:
        return "bool";
    case Kind::Int:
        return "int";
    case Kind::Uint:
        return "uint";
    case Kind::Double:
        return "double";
    case Kind::String:
        return "string";
    case Kind::Bytes:
        return "bytes";
    case Kind::List:
        return "list";
    case Kind::Map:
    case Kind::AttributeDomains:
    case Kind::CapacityDomains:
    case Kind::AttributeMap:
    case Kind::CapacityMap:
        return "map";
    case Kind::Quantity:
        return "kubernetes.Quantity";
    case Kind::Semver:
        return "kubernetes.Semver";
    case Kind::Device:
        return "kubernetes.DRADevice";
    case Kind::Error:
        return "error";
    }
    return "unknown";
}

Value Value::boolean(bool b) {
    Value v;
    v.m_kind = Kind::Bool;
    v.m_scalar.b = b;
    return v;
}

Value Value::integer(std::int64_t i) {
    Value v;
    v.m_kind = Kind::Int;
    v.m_scalar.i = i;
    return v;
}

Value Value::uinteger(std::uint64_t u) {
    Value v;
    v.m_kind = Kind::Uint;
    v.m_scalar.u = u;
    return v;
}

Value Value::real(double d) {
    Value v;
    v.m_kind = Kind::Double;
    v.m_scalar.d = d;
    return v;
}

Value Value::string(std::string_view borrowed) {
    Value v;
    v.m_kind = Kind::String;
    v.m_text = borrowed;
    return v;
}

Value Value::string(std::string owned) {
    auto box = std::make_shared<const std::string>(std::move(owned));
    Value v = string(std::string_view(*box));
    v.m_owner = std::move(box);
    return v;
}

Value Value::bytes(std::string_view borrowed) {
    Value v = string(borrowed);
    v.m_kind = Kind::Bytes;
    return v;
}

Value Value::bytes(std::string owned) {
    Value v = string(std::move(owned));
    v.m_kind = Kind::Bytes;
    return v;
}

Value Value::list(const ListData* borrowed) {
    Value v;
    v.m_kind = Kind::List;
    v.m_scalar.p = borrowed;
    return v;
}

Value Value::list(std::shared_ptr<const ListData> owned) {
    Value v = list(owned.get());
    v.m_owner = std::move(owned);
    return v;
}

Value Value::map(const MapData* borrowed) {
    Value v;
    v.m_kind = Kind::Map;
    v.m_scalar.p = borrowed;
    return v;
}

Value Value::map(std::shared_ptr<const MapData> owned) {
    Value v = map(owned.get());
    v.m_owner = std::move(owned);
    return v;
}

Value Value::quantity(const Quantity* borrowed) {
    Value v;
    v.m_kind = Kind::Quantity;
    v.m_scalar.p = borrowed;
    return v;
}

Value Value::quantity(const Quantity& owned) {
    auto box = std::make_shared<const Quantity>(owned);
    Value v = quantity(box.get());
    v.m_owner = std::move(box);
    return v;
}

Value Value::semver(const Version* borrowed) {
    Value v;
    v.m_kind = Kind::Semver;
    v.m_scalar.p = borrowed;
    return v;
}

Value Value::semver(Version owned) {
    auto box = std::make_shared<const Version>(std::move(owned));
    Value v = semver(box.get());
    v.m_owner = std::move(box);
    return v;
}

Value Value::device(const DeviceView* device) {
    Value v;
    v.m_kind = Kind::Device;
    v.m_scalar.p = device;
    return v;
}

Value Value::domains(Kind kind, const DeviceView* device) {
    Value v = Value::device(device);
    v.m_kind = kind;
    return v;
}

Value Value::domainMap(Kind kind, const DeviceView* device, std::string_view domain) {
    Value v = Value::device(device);
    v.m_kind = kind;
    v.m_text = domain;
    return v;
}

Value Value::domainMap(Kind kind, const DeviceView* device, const Value& domain) {
    Value v = domainMap(kind, device, domain.text());
    v.m_owner = domain.m_owner;
    return v;
}

Value Value::error(std::string message, bool cancelled) {
    Value v = string(std::move(message));
    v.m_kind = Kind::Error;
    v.m_scalar.b = cancelled;
    return v;
}

Value Value::staticError(std::string_view message) {
    Value v = string(message);
    v.m_kind = Kind::Error;
    v.m_scalar.b = false;
    return v;
}

// ---- Numbers on one line ----

namespace {

constexpr double kTwo63 = 9223372036854775808.0;
constexpr double kTwo64 = 18446744073709551616.0;

int sign3(bool less, bool greater) {
    return less ? -1 : (greater ? 1 : 0);
}

// i <=> d exactly (no rounding of i to double); nullopt for NaN.
std::optional<int> compareIntDouble(std::int64_t i, double d) {
    if (std::isnan(d)) return std::nullopt;
    if (d < -kTwo63) return 1;
    if (d >= kTwo63) return -1;
    const double whole = std::trunc(d);
    const auto t = static_cast<std::int64_t>(whole);
    if (i != t) return sign3(i<t, i> t);
    return sign3(d > whole, d < whole);
}

std::optional<int> compareUintDouble(std::uint64_t u, double d) {
    if (std::isnan(d)) return std::nullopt;
    if (d < 0) return 1;
    if (d >= kTwo64) return -1;
    const double whole = std::trunc(d);
    const auto t = static_cast<std::uint64_t>(whole);
    if (u != t) return sign3(u<t, u> t);
    return sign3(d > whole, d < whole);
}

int compareIntUint(std::int64_t i, std::uint64_t u) {
    if (i < 0) return -1;
    const auto w = static_cast<std::uint64_t>(i);
    return sign3(w<u, w> u);
}

std::optional<int> compareNumbers(const Value& a, const Value& b) {
    const Kind ka = a.kind();
    const Kind kb = b.kind();
    if (ka == Kind::Int && kb == Kind::Int) return sign3(a.asInt() < b.asInt(), a.asInt() > b.asInt());
    if (ka == Kind::Uint && kb == Kind::Uint) return sign3(a.asUint() < b.asUint(), a.asUint() > b.asUint());
    if (ka == Kind::Double && kb == Kind::Double) {
        if (std::isnan(a.asDouble()) || std::isnan(b.asDouble())) return std::nullopt;
        return sign3(a.asDouble() < b.asDouble(), a.asDouble() > b.asDouble());
    }
    if (ka == Kind::Int && kb == Kind::Uint) return compareIntUint(a.asInt(), b.asUint());
    if (ka == Kind::Uint && kb == Kind::Int) return -compareIntUint(b.asInt(), a.asUint());
    if (ka == Kind::Int && kb == Kind::Double) return compareIntDouble(a.asInt(), b.asDouble());
    if (ka == Kind::Double && kb == Kind::Int) {
        const auto c = compareIntDouble(b.asInt(), a.asDouble());
        return c ? std::optional<int>(-*c) : std::nullopt;
    }
    if (ka == Kind::Uint && kb == Kind::Double) return compareUintDouble(a.asUint(), b.asDouble());
    const auto c = compareUintDouble(b.asUint(), a.asDouble()); // Double, Uint
    return c ? std::optional<int>(-*c) : std::nullopt;
}

int compareText(std::string_view a, std::string_view b) {
    const int c = a.compare(b);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// The domains of the device's attributes (or capacities) in the order they first appear, each
// once; O(n log n), so that devices with many entries stay cheap.
std::vector<std::string_view> distinctDomains(const DeviceView& device, bool capacity) {
    const std::size_t n = capacity ? device.capacity.size() : device.attributes.size();
    std::vector<std::pair<std::string_view, std::size_t>> byDomain;
    byDomain.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::string_view name =
            capacity ? std::string_view(device.capacity[i].name) : std::string_view(device.attributes[i].name);
        byDomain.emplace_back(splitQualifiedName(name, device.driver).domain, i);
    }
    std::sort(byDomain.begin(), byDomain.end());
    std::vector<std::pair<std::size_t, std::string_view>> firsts;
    for (std::size_t i = 0; i < byDomain.size(); ++i)
        if (i == 0 || byDomain[i].first != byDomain[i - 1].first)
            firsts.emplace_back(byDomain[i].second, byDomain[i].first);
    std::sort(firsts.begin(), firsts.end());
    std::vector<std::string_view> domains;
    domains.reserve(firsts.size());
    for (const auto& [index, domain] : firsts) domains.push_back(domain);
    return domains;
}

} // namespace

Value attributeValue(const AttributeValue& value) {
    if (const auto* i = std::get_if<std::int64_t>(&value)) return Value::integer(*i);
    if (const auto* b = std::get_if<bool>(&value)) return Value::boolean(*b);
    if (const auto* s = std::get_if<std::string>(&value)) return Value::string(std::string_view(*s));
    return Value::semver(&std::get<Version>(value));
}

std::optional<int> compareOrdered(const Value& a, const Value& b) {
    if (a.isNumber() && b.isNumber()) return compareNumbers(a, b);
    if (a.kind() != b.kind()) return std::nullopt;
    switch (a.kind()) {
    case Kind::String:
    case Kind::Bytes:
        return compareText(a.text(), b.text());
    case Kind::Bool:
        return sign3(!a.asBool() && b.asBool(), a.asBool() && !b.asBool());
    default:
        return std::nullopt;
    }
}

bool orderable(Kind a, Kind b) {
    const auto number = [](Kind k) { return k == Kind::Int || k == Kind::Uint || k == Kind::Double; };
    if (number(a) && number(b)) return true;
    return a == b && (a == Kind::String || a == Kind::Bytes || a == Kind::Bool);
}

bool isKeyKind(Kind kind) {
    return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Uint || kind == Kind::String;
}

int keyOrder(const Value& a, const Value& b) {
    const auto rank = [](Kind k) { return k == Kind::Bool ? 0 : (k == Kind::String ? 2 : 1); };
    const int ra = rank(a.kind());
    const int rb = rank(b.kind());
    if (ra != rb) return ra < rb ? -1 : 1;
    if (ra == 0) return sign3(!a.asBool() && b.asBool(), a.asBool() && !b.asBool());
    if (ra == 2) return compareText(a.text(), b.text());
    return compareNumbers(a, b).value_or(0);
}

std::size_t mapSize(const Value& map) {
    switch (map.kind()) {
    case Kind::Map:
        return map.asMap().entries.size();
    case Kind::AttributeDomains:
    case Kind::CapacityDomains: {
        return distinctDomains(map.asDevice(), map.kind() == Kind::CapacityDomains).size();
    }
    case Kind::AttributeMap: {
        const DeviceView& device = map.asDevice();
        return static_cast<std::size_t>(
            std::count_if(device.attributes.begin(), device.attributes.end(), [&](const auto& a) {
                return splitQualifiedName(a.name, device.driver).domain == map.text();
            }));
    }
    case Kind::CapacityMap: {
        const DeviceView& device = map.asDevice();
        return static_cast<std::size_t>(
            std::count_if(device.capacity.begin(), device.capacity.end(), [&](const auto& c) {
                return splitQualifiedName(c.name, device.driver).domain == map.text();
            }));
    }
    default:
        return 0;
    }
}

Value mapFind(const Value& map, const Value& key, bool& found) {
    found = false;
    if (map.kind() == Kind::Map) {
        Value probe = key;
        if (key.kind() == Kind::Double) { // a double finds an integral key
            const double d = key.asDouble();
            if (!(d >= -kTwo63 && d < kTwo64) || std::trunc(d) != d) return {};
            probe =
                d < 0 ? Value::integer(static_cast<std::int64_t>(d)) : Value::uinteger(static_cast<std::uint64_t>(d));
        } else if (!isKeyKind(key.kind())) {
            return {};
        }
        const auto& entries = map.asMap().entries;
        const auto it = std::lower_bound(entries.begin(), entries.end(), probe, [](const auto& entry, const Value& k) {
            return keyOrder(entry.first, k) < 0;
        });
        if (it == entries.end() || keyOrder(it->first, probe) != 0) return {};
        found = true;
        return it->second;
    }
    if (key.kind() != Kind::String) return {};
    const DeviceView& device = map.asDevice();
    switch (map.kind()) {
    case Kind::AttributeDomains:
    case Kind::CapacityDomains: {
        const bool capacity = map.kind() == Kind::CapacityDomains;
        const auto inDomain = [&](std::string_view name) {
            return splitQualifiedName(name, device.driver).domain == key.text();
        };
        found = capacity ? std::any_of(device.capacity.begin(), device.capacity.end(),
                                       [&](const auto& c) { return inDomain(c.name); })
                         : std::any_of(device.attributes.begin(), device.attributes.end(),
                                       [&](const auto& a) { return inDomain(a.name); });
        return Value::domainMap(capacity ? Kind::CapacityMap : Kind::AttributeMap, &device, key);
    }
    case Kind::AttributeMap:
        if (const DeviceAttribute* a = findAttribute(device, map.text(), key.text())) {
            found = true;
            return attributeValue(a->value);
        }
        return {};
    case Kind::CapacityMap:
        if (const DeviceCapacity* c = findCapacity(device, map.text(), key.text())) {
            found = true;
            return Value::quantity(&c->value);
        }
        return {};
    default:
        return {};
    }
}

void mapKeys(const Value& map, std::vector<Value>& out) {
    if (map.kind() == Kind::Map) {
        for (const auto& [key, value] : map.asMap().entries) out.push_back(key);
        return;
    }
    const DeviceView& device = map.asDevice();
    const bool capacity = map.kind() == Kind::CapacityDomains || map.kind() == Kind::CapacityMap;
    if (map.kind() == Kind::AttributeDomains || map.kind() == Kind::CapacityDomains) {
        for (const std::string_view domain : distinctDomains(device, capacity)) out.push_back(Value::string(domain));
        return;
    }
    const std::size_t n = capacity ? device.capacity.size() : device.attributes.size();
    for (std::size_t i = 0; i < n; ++i) {
        const std::string_view name =
            capacity ? std::string_view(device.capacity[i].name) : std::string_view(device.attributes[i].name);
        const QualifiedName q = splitQualifiedName(name, device.driver);
        if (q.domain == map.text()) out.push_back(Value::string(q.id));
    }
}

std::uint64_t scanSurcharge(const DeviceView& device) {
    const std::size_t n = device.attributes.size() + device.capacity.size();
    return n > kFreeScanEntries ? n / 4 : 0;
}

std::uint64_t scanSurcharge(const Value& v) {
    const bool deviceMap = v.kind() >= Kind::AttributeDomains && v.kind() <= Kind::CapacityMap;
    return deviceMap ? scanSurcharge(v.asDevice()) : 0;
}

std::uint64_t costSize(const Value& v) {
    switch (v.kind()) {
    case Kind::String:
    case Kind::Bytes:
        return v.text().size();
    case Kind::List:
        return v.asList().items.size();
    case Kind::Map:
    case Kind::AttributeDomains:
    case Kind::CapacityDomains:
    case Kind::AttributeMap:
    case Kind::CapacityMap:
        return mapSize(v);
    default:
        return 1;
    }
}

// ---- Equality ----

namespace {

bool equalMaps(const Value& a, const Value& b, Meter& meter) {
    const std::size_t size = mapSize(a);
    if (size != mapSize(b)) return false;
    std::vector<Value> keys;
    mapKeys(a, keys);
    if (!meter.spend(keys.size() * (1 + scanSurcharge(a) + scanSurcharge(b)))) return false;
    for (const Value& key : keys) {
        bool found = false;
        bool foundInA = false;
        const Value other = mapFind(b, key, found);
        if (!found) return false;
        const Value mine = mapFind(a, key, foundInA);
        if (!equal(mine, other, meter)) return false;
    }
    return true;
}

} // namespace

bool equal(const Value& a, const Value& b, Meter& meter) {
    if (a.isNumber() && b.isNumber()) return compareNumbers(a, b) == 0;
    if (a.isMapLike() && b.isMapLike()) return equalMaps(a, b, meter);
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
    case Kind::Null:
        return true;
    case Kind::Bool:
        return a.asBool() == b.asBool();
    case Kind::String:
    case Kind::Bytes:
        return a.text() == b.text();
    case Kind::Quantity:
        return a.asQuantity() == b.asQuantity();
    case Kind::Semver:
        return a.asSemver() == b.asSemver();
    case Kind::Device:
        return &a.asDevice() == &b.asDevice();
    case Kind::List: {
        const auto& x = a.asList().items;
        const auto& y = b.asList().items;
        if (x.size() != y.size()) return false;
        if (!meter.spend(x.size())) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!equal(x[i], y[i], meter)) return false;
        return true;
    }
    default:
        return false;
    }
}

// ---- Display ----

namespace {

void appendQuoted(std::string& out, std::string_view text, bool bytes) {
    out += bytes ? "b\"" : "\"";
    for (unsigned char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (c < 0x20 || c == 0x7f || (bytes && c >= 0x80)) {
                std::array<char, 8> buf{};
                std::snprintf(buf.data(), buf.size(), "\\x%02x", c);
                out += buf.data();
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    out += '"';
}

std::string displayDouble(double d) {
    std::string text = formatDouble(d); // as string(d) reads, marked as a double
    if (text.find_first_of(".enI") == std::string::npos) text += ".0";
    return text;
}

void appendDisplay(std::string& out, const Value& v, int depth) {
    if (depth > 32) {
        out += "...";
        return;
    }
    switch (v.kind()) {
    case Kind::Null:
        out += "null";
        return;
    case Kind::Bool:
        out += v.asBool() ? "true" : "false";
        return;
    case Kind::Int:
        out += std::to_string(v.asInt());
        return;
    case Kind::Uint:
        out += std::to_string(v.asUint()) + "u";
        return;
    case Kind::Double:
        out += displayDouble(v.asDouble());
        return;
    case Kind::String:
        appendQuoted(out, v.text(), false);
        return;
    case Kind::Bytes:
        appendQuoted(out, v.text(), true);
        return;
    case Kind::Quantity:
        out += "quantity(\"" + v.asQuantity().toString() + "\")";
        return;
    case Kind::Semver:
        out += "semver(\"" + v.asSemver().toString() + "\")";
        return;
    case Kind::Device:
        out += "device";
        return;
    case Kind::Error:
        out += "error(" + std::string(v.text()) + ")";
        return;
    case Kind::List: {
        out += '[';
        const auto& items = v.asList().items;
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (i > 0) out += ", ";
            appendDisplay(out, items[i], depth + 1);
        }
        out += ']';
        return;
    }
    default: { // maps and the device's map views
        std::vector<Value> keys;
        mapKeys(v, keys);
        out += '{';
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (i > 0) out += ", ";
            appendDisplay(out, keys[i], depth + 1);
            out += ": ";
            bool found = false;
            appendDisplay(out, mapFind(v, keys[i], found), depth + 1);
        }
        out += '}';
        return;
    }
    }
}

} // namespace

std::string display(const Value& v) {
    std::string out;
    appendDisplay(out, v, 0);
    return out;
}

std::string shortDisplay(const Value& v, std::size_t limit) {
    if (v.kind() == Kind::String || v.kind() == Kind::Bytes) { // without rendering all of a long text
        const Value head = v.text().size() > limit ? v.slice(v.text().substr(0, limit)) : v;
        std::string text = display(head);
        return v.text().size() > limit ? text + "..." : text;
    }
    std::string text = display(v);
    if (text.size() > limit) text = text.substr(0, limit) + "...";
    return text;
}

} // namespace topodeck::cel
