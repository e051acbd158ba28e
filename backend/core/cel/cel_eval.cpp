#include "core/cel/cel_eval.h"

#include "core/cel/cel_functions.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

namespace topodeck::cel {

namespace {

constexpr std::size_t kInlineSlots = 8;

// cel-go's costs of the steps of the macros' expansions (parser/macro.go), per iteration:
// all: @not_strictly_false(accu) and `accu &&`; exists: @not_strictly_false(!accu) and `accu ||`;
// map: `accu + [t]` (a list of one, the concatenation, the accumulator); filter also reads x.
constexpr std::uint64_t kAllStep = 3;
constexpr std::uint64_t kExistsStep = 4;
constexpr std::uint64_t kMapStep = 12;
constexpr std::uint64_t kFilterStep = 13;
constexpr std::uint64_t kListCreate = 10; // common.ListCreateBaseCost
constexpr std::uint64_t kMapCreate = 30;  // common.MapCreateBaseCost

Value noSuchKey(const Value& key) {
    return Value::error("no such key: " +
                        (key.kind() == Kind::String ? std::string(key.text().substr(0, 256)) : shortDisplay(key)));
}

class Evaluator {
public:
    Evaluator(const ProgramData& program, const DeviceView& device) : m_p(program), m_device(device) {
        m_meter.limit = program.costLimit;
        const auto slots = static_cast<std::size_t>(program.slots);
        if (slots > kInlineSlots)
            m_heapSlots.resize(slots);
        else if (slots > 0)
            m_inlineSlots.emplace();
    }

    Value run() { return eval(m_p.root); }
    std::uint64_t cost() const { return m_meter.used; }

private:
    bool charge(std::uint64_t units) { return m_meter.spend(units); }
    static Value cancelled() { return Value::error("operation cancelled: actual cost limit exceeded", true); }
    Value& slot(std::int32_t i) {
        const auto index = static_cast<std::size_t>(i);
        return m_inlineSlots ? (*m_inlineSlots)[index] : m_heapSlots[index];
    }

    Value eval(std::int32_t i);
    Value deviceEntry(const Node& n);
    Value select(const Value& target, std::string_view field);
    Value index(const Value& container, const Value& key);
    Value has(const Node& n);
    Value call(const Node& n);
    Value unary(const Node& n);
    Value logical(const Node& n);
    [[gnu::noinline]] Value createList(const Node& n);
    [[gnu::noinline]] Value createMap(const Node& n);
    [[gnu::noinline]] Value comprehension(const Node& n);
    Value quantified(const Node& n, const std::vector<Value>& items, bool all);
    Value collect(const Node& n, const std::vector<Value>& items);

    const ProgramData& m_p;
    const DeviceView& m_device;
    Meter m_meter;
    std::optional<std::array<Value, kInlineSlots>> m_inlineSlots;
    std::vector<Value> m_heapSlots;
};

Value Evaluator::eval(std::int32_t i) {
    const Node& n = m_p.node(i);
    switch (n.kind) {
    case NodeKind::Literal:
        return m_p.constants[static_cast<std::size_t>(n.a)];
    case NodeKind::Variable:
        return charge(1) ? slot(n.slot) : cancelled();
    case NodeKind::DeviceRoot:
        return charge(1) ? Value::device(&m_device) : cancelled();
    case NodeKind::DeviceDriver:
        return charge(2) ? Value::string(m_device.driver) : cancelled();
    case NodeKind::DeviceMulti:
        return charge(2) ? Value::boolean(m_device.allowMultipleAllocations) : cancelled();
    case NodeKind::DeviceDomains:
        if (!charge(2)) return cancelled();
        return Value::domains(n.aux ? Kind::CapacityDomains : Kind::AttributeDomains, &m_device);
    case NodeKind::DeviceDomain:
        if (!charge(3)) return cancelled();
        return Value::domainMap(n.aux ? Kind::CapacityMap : Kind::AttributeMap, &m_device, m_p.nameOf(n.name));
    case NodeKind::DeviceEntry:
        return deviceEntry(n);
    case NodeKind::Select: {
        const Value target = eval(n.a);
        if (target.isError()) return target;
        return charge(1) ? select(target, m_p.nameOf(n.name)) : cancelled();
    }
    case NodeKind::Index: {
        const Value container = eval(n.a);
        if (container.isError()) return container;
        const Value key = eval(n.b);
        if (key.isError()) return key;
        return charge(1) ? index(container, key) : cancelled();
    }
    case NodeKind::Has:
        return has(n);
    case NodeKind::Call:
        return call(n);
    case NodeKind::Not:
    case NodeKind::Negate:
        return unary(n);
    case NodeKind::And:
    case NodeKind::Or:
        return logical(n);
    case NodeKind::Conditional: {
        const Value condition = eval(n.a);
        if (condition.isError()) return condition;
        if (condition.kind() != Kind::Bool) return noSuchOverload("_?_:_", std::span<const Value>(&condition, 1));
        return eval(condition.asBool() ? n.b : n.c);
    }
    case NodeKind::CreateList:
        return createList(n);
    case NodeKind::CreateMap:
        return createMap(n);
    case NodeKind::Comprehension:
        return comprehension(n);
    case NodeKind::Bind: {
        Value init = eval(n.a); // an error is kept: it matters only if the body reads the variable
        if (init.isCancelled()) return init;
        slot(n.slot) = std::move(init);
        return eval(n.b);
    }
    default:
        return Value::staticError("internal error: an unresolved expression");
    }
}

// device.attributes["<domain>"].<id> (or capacity) with constant names: one scan of the device.
Value Evaluator::deviceEntry(const Node& n) {
    if (!charge(4)) return cancelled();
    const std::string_view domain = m_p.nameOf(n.name);
    const std::string_view id = m_p.nameOf(n.name2);
    if (n.aux == 0) {
        if (const DeviceAttribute* a = findAttribute(m_device, domain, id)) return attributeValue(a->value);
    } else if (const DeviceCapacity* c = findCapacity(m_device, domain, id)) {
        return Value::quantity(&c->value);
    }
    return noSuchKey(Value::string(id));
}

Value Evaluator::select(const Value& target, std::string_view field) {
    if (target.kind() == Kind::Device) {
        const DeviceView& device = target.asDevice();
        if (field == "driver") return Value::string(device.driver);
        if (field == "allowMultipleAllocations") return Value::boolean(device.allowMultipleAllocations);
        if (field == "attributes") return Value::domains(Kind::AttributeDomains, &device);
        if (field == "capacity") return Value::domains(Kind::CapacityDomains, &device);
        return Value::error("no such field: " + std::string(field));
    }
    if (!target.isMapLike())
        return Value::error("no such overload: field selection '." + std::string(field) + "' on " +
                            std::string(kindName(target.kind())));
    return index(target, Value::string(field));
}

Value Evaluator::index(const Value& container, const Value& key) {
    if (container.kind() == Kind::List) {
        const auto& items = container.asList().items;
        std::optional<std::int64_t> at;
        if (key.kind() == Kind::Int)
            at = key.asInt();
        else if (key.kind() == Kind::Uint &&
                 key.asUint() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            at = static_cast<std::int64_t>(key.asUint());
        else if (key.kind() == Kind::Double && key.asDouble() > -9.2e18 && key.asDouble() < 9.2e18 &&
                 std::trunc(key.asDouble()) == key.asDouble())
            at = static_cast<std::int64_t>(key.asDouble());
        if (!at) {
            const Value args[] = {container, key};
            return key.isNumber() ? Value::error("invalid list index " + shortDisplay(key))
                                  : noSuchOverload("_[_]", args);
        }
        if (*at < 0 || static_cast<std::uint64_t>(*at) >= items.size())
            return Value::error("index '" + std::to_string(*at) + "' out of range in list size '" +
                                std::to_string(items.size()) + "'");
        return items[static_cast<std::size_t>(*at)];
    }
    if (!container.isMapLike()) {
        const Value args[] = {container, key};
        return noSuchOverload("_[_]", args);
    }
    bool found = false;
    Value value = mapFind(container, key, found);
    // An unknown domain of device.attributes or device.capacity is an empty map, as in Kubernetes.
    const bool domains = container.kind() == Kind::AttributeDomains || container.kind() == Kind::CapacityDomains;
    if (found || (domains && key.kind() == Kind::String)) return value;
    return noSuchKey(key);
}

Value Evaluator::has(const Node& n) {
    const Value target = eval(n.a); // has() itself costs nothing (Kubernetes: PresenceTestHasCost false)
    if (target.isError()) return target;
    if (target.kind() == Kind::Device) return Value::boolean(true);
    if (!target.isMapLike())
        return Value::error("no such overload: has() of a field of " + std::string(kindName(target.kind())));
    bool found = false;
    (void)mapFind(target, Value::string(m_p.nameOf(n.name)), found);
    return Value::boolean(found);
}

Value Evaluator::call(const Node& n) {
    if (n.folded >= 0) return charge(n.cost) ? m_p.constants[static_cast<std::size_t>(n.folded)] : cancelled();
    std::array<Value, 4> args;
    const auto count = static_cast<std::size_t>(n.count);
    if (count > args.size()) return Value::staticError("internal error: too many arguments");
    for (std::size_t i = 0; i < count; ++i) {
        args[i] = eval(m_p.arg(n, static_cast<std::int32_t>(i)));
        if (args[i].isError()) return args[i];
    }
    const std::span<const Value> values(args.data(), count);
    const auto fn = static_cast<Fn>(n.fn);
    if (!charge(callCost(fn, values))) return cancelled();
    CallContext context{m_meter, n.regex >= 0 ? m_p.regexes[static_cast<std::size_t>(n.regex)].get() : nullptr};
    return invoke(fn, values, context);
}

Value Evaluator::unary(const Node& n) {
    const Value operand = eval(n.a);
    if (operand.isError()) return operand;
    if (!charge(1)) return cancelled();
    if (n.kind == NodeKind::Not) {
        if (operand.kind() == Kind::Bool) return Value::boolean(!operand.asBool());
        return noSuchOverload("!_", std::span<const Value>(&operand, 1));
    }
    if (operand.kind() == Kind::Double) return Value::real(-operand.asDouble());
    if (operand.kind() == Kind::Int) {
        if (operand.asInt() == std::numeric_limits<std::int64_t>::min()) return Value::staticError("integer overflow");
        return Value::integer(-operand.asInt());
    }
    return noSuchOverload("-_", std::span<const Value>(&operand, 1));
}

// a && b && ...: false decides whatever errors other operands give; else the first error.
Value Evaluator::logical(const Node& n) {
    const bool isAnd = n.kind == NodeKind::And;
    std::optional<Value> problem;
    for (std::int32_t i = 0; i < n.count; ++i) {
        Value v = eval(m_p.arg(n, i));
        if (v.isCancelled()) return v;
        if (v.kind() == Kind::Bool) {
            if (v.asBool() != isAnd) return v;
            continue;
        }
        if (!problem)
            problem =
                v.isError() ? std::move(v) : noSuchOverload(isAnd ? "_&&_" : "_||_", std::span<const Value>(&v, 1));
    }
    return problem ? std::move(*problem) : Value::boolean(isAnd);
}

Value Evaluator::createList(const Node& n) {
    if (!charge(kListCreate)) return cancelled();
    auto list = std::make_shared<ListData>();
    list->items.reserve(static_cast<std::size_t>(n.count));
    for (std::int32_t i = 0; i < n.count; ++i) {
        Value v = eval(m_p.arg(n, i));
        if (v.isError()) return v;
        list->items.push_back(std::move(v));
    }
    return Value::list(std::shared_ptr<const ListData>(std::move(list)));
}

Value Evaluator::createMap(const Node& n) {
    if (!charge(kMapCreate)) return cancelled();
    auto map = std::make_shared<MapData>();
    for (std::int32_t i = 0; i + 1 < n.count; i += 2) {
        Value key = eval(m_p.arg(n, i));
        if (key.isError()) return key;
        Value value = eval(m_p.arg(n, i + 1));
        if (value.isError()) return value;
        if (!isKeyKind(key.kind()))
            return Value::error("unsupported map key type: " + std::string(kindName(key.kind())));
        map->entries.emplace_back(std::move(key), std::move(value));
    }
    std::stable_sort(map->entries.begin(), map->entries.end(),
                     [](const auto& x, const auto& y) { return keyOrder(x.first, y.first) < 0; });
    for (std::size_t i = 1; i < map->entries.size(); ++i)
        if (keyOrder(map->entries[i - 1].first, map->entries[i].first) == 0)
            return Value::error("duplicate map key " + shortDisplay(map->entries[i].first));
    return Value::map(std::shared_ptr<const MapData>(std::move(map)));
}

// all() and exists(): like && and || over the elements.
Value Evaluator::quantified(const Node& n, const std::vector<Value>& items, bool all) {
    const std::uint64_t step = all ? kAllStep : kExistsStep;
    std::optional<Value> problem;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (!charge(step)) return cancelled();
        slot(n.slot) = items[i];
        Value p = eval(n.b);
        if (p.isCancelled()) return p;
        if (p.kind() == Kind::Bool) {
            // Decided: cel-go tests its loop condition once more (when elements remain), then
            // reads the result.
            if (p.asBool() != all) return charge((i + 1 < items.size() ? step - 1 : 0) + 1) ? p : cancelled();
            continue;
        }
        if (!problem)
            problem = p.isError() ? std::move(p) : noSuchOverload(all ? "_&&_" : "_||_", std::span<const Value>(&p, 1));
    }
    if (!charge(1)) return cancelled();
    return problem ? std::move(*problem) : Value::boolean(all);
}

// map() and filter(): a new list; any error is the result.
Value Evaluator::collect(const Node& n, const std::vector<Value>& items) {
    const auto kind = static_cast<ComprehensionKind>(n.aux);
    auto out = std::make_shared<ListData>();
    for (const Value& item : items) {
        slot(n.slot) = item;
        if (n.b >= 0) {
            const Value keep = eval(n.b);
            if (keep.isError()) return keep;
            if (keep.kind() != Kind::Bool) return noSuchOverload("_?_:_", std::span<const Value>(&keep, 1));
            if (!keep.asBool()) {
                if (!charge(1)) return cancelled();
                continue;
            }
        }
        if (!charge(kind == ComprehensionKind::Filter ? kFilterStep : kMapStep)) return cancelled();
        if (kind == ComprehensionKind::Filter) {
            out->items.push_back(item);
            continue;
        }
        Value t = eval(n.c);
        if (t.isError()) return t;
        out->items.push_back(std::move(t));
    }
    if (!charge(1)) return cancelled();
    return Value::list(std::shared_ptr<const ListData>(std::move(out)));
}

Value Evaluator::comprehension(const Node& n) {
    const Value range = eval(n.a);
    if (range.isError()) return range;
    std::vector<Value> keys;
    if (range.isMapLike())
        mapKeys(range, keys);
    else if (range.kind() != Kind::List)
        return Value::error("cannot iterate over a value of type " + std::string(kindName(range.kind())) +
                            " (expected a list or a map)");
    const std::vector<Value>& items = range.kind() == Kind::List ? range.asList().items : keys;
    switch (static_cast<ComprehensionKind>(n.aux)) {
    case ComprehensionKind::All:
        return quantified(n, items, true);
    case ComprehensionKind::Exists:
        return quantified(n, items, false);
    case ComprehensionKind::ExistsOne: {
        std::uint64_t count = 0;
        for (const Value& item : items) {
            slot(n.slot) = item;
            const Value p = eval(n.b);
            if (p.isError()) return p;
            if (p.kind() != Kind::Bool) return noSuchOverload("_?_:_", std::span<const Value>(&p, 1));
            count += p.asBool() ? 1 : 0;
            if (!charge(p.asBool() ? 2 : 1)) return cancelled();
        }
        return charge(2) ? Value::boolean(count == 1) : cancelled();
    }
    default:
        return collect(n, items);
    }
}

} // namespace

EvalOutcome evaluateProgram(const ProgramData& program, const DeviceView& device) {
    Evaluator evaluator(program, device);
    EvalOutcome outcome;
    outcome.value = evaluator.run();
    outcome.cost = evaluator.cost();
    return outcome;
}

} // namespace topodeck::cel
