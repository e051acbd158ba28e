#include "core/model/pod_requests.h"

namespace topodeck {

namespace {

// The API server rounds every stored quantity up (away from zero) to a whole milli-unit
// (SetDefaults_ResourceList), so a manifest's "0.1m" is scheduled as "1m".
Quantity roundedUpToMilli(const Quantity& quantity) {
    constexpr __int128 kNanosPerMilli = 1'000'000;
    const __int128 nanos = quantity.nanos();
    const __int128 remainder = nanos % kNanosPerMilli;
    if (remainder == 0) return quantity;
    const __int128 truncated = nanos - remainder;
    Quantity result = Quantity::fromNanos(truncated, quantity.format());
    // += saturates rather than overflowing; the addend carries the format for a zero `truncated`.
    result += Quantity::fromNanos(remainder > 0 ? kNanosPerMilli : -kNanosPerMilli, quantity.format());
    return result;
}

ResourceList roundedUpToMilli(const ResourceList& list) {
    ResourceList result;
    for (const auto& [name, quantity] : list) result.set(name, roundedUpToMilli(quantity));
    return result;
}

// list[name] += quantity, as ResourceList::add does for a single entry.
void addEntry(ResourceList& list, std::string_view name, const Quantity& quantity) {
    list.set(name, list.get(name) + quantity);
}

// Adds a container's requests after API defaulting: a resource with a limit but no request is
// requested at its limit (SetDefaults_Pod). An explicit request, even zero, is kept. Entry by
// entry, so that the usual pod (one container) builds no intermediate list.
void addDefaultedRequests(ResourceList& out, const ContainerResources& container) {
    for (const auto& [name, request] : container.requests) addEntry(out, name, roundedUpToMilli(request));
    for (const auto& [name, limit] : container.limits)
        if (!container.requests.contains(name)) addEntry(out, name, roundedUpToMilli(limit));
}

ResourceList defaultedRequests(const ContainerResources& container) {
    ResourceList requests;
    addDefaultedRequests(requests, container);
    return requests;
}

} // namespace

ResourceList effectivePodRequests(const PodResourceSpec& spec) {
    ResourceList requests;
    if (!spec.containers.empty()) requests.reserve(spec.containers.front().requests.size());
    for (const ContainerResources& container : spec.containers) addDefaultedRequests(requests, container);

    // Init containers run one at a time, each next to the sidecars started before it; sidecars
    // (restartPolicy: Always) keep running alongside the app containers (KEP-753).
    ResourceList sidecars;
    ResourceList initPeak;
    for (const ContainerResources& container : spec.initContainers) {
        ResourceList own = defaultedRequests(container);
        if (container.restartAlways) {
            requests.add(own);
            sidecars.add(own);
            initPeak.maxWith(sidecars);
        } else {
            own.add(sidecars);
            initPeak.maxWith(own);
        }
    }
    requests.maxWith(initPeak);

    if (!spec.overhead.empty()) requests.add(roundedUpToMilli(spec.overhead));
    return requests;
}

} // namespace topodeck
