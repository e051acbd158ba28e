#include "core/live/live_status.h"

#include <cstdio>
#include <ctime>

namespace topodeck {

namespace {

std::tm utcTime(std::chrono::system_clock::time_point time) {
    const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
    std::tm parts{};
    gmtime_r(&seconds, &parts);
    return parts;
}

std::string clockTime(std::chrono::system_clock::time_point time) {
    const std::tm parts = utcTime(time);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%H:%M:%S UTC", &parts);
    return buffer;
}

} // namespace

void aggregateResourceHealth(LiveStatus& status, std::chrono::system_clock::time_point syncedAt,
                             std::chrono::milliseconds staleAfter, std::chrono::system_clock::time_point now) {
    using State = ResourceHealth::State;
    status.state = LinkState::Synced;
    status.since = syncedAt;
    for (const ResourceHealth& r : status.resources) {
        LinkState state = LinkState::Synced;
        // Nothing to show, and no reason to think waiting helps: credentials, permissions, or
        // no server to talk to. A server that answers with errors may recover: connecting.
        if (r.state == State::Unauthorized ||
            (r.required && (r.state == State::Forbidden || (r.state == State::Unreachable && !r.everSynced))))
            state = LinkState::Error;
        else if (r.state == State::Synced || r.state == State::NotInstalled || r.state == State::Forbidden)
            continue; // a forbidden optional resource is a problem of its own; the rest is live
        else if (!r.everSynced)
            state = LinkState::Connecting;
        else
            state = now - r.since >= staleAfter ? LinkState::Stale : LinkState::Reconnecting;
        if (state < status.state || (state == status.state && r.since >= status.since)) continue;
        status.state = state;
        status.since = r.since;
        status.message = r.message.empty() ? std::string() : r.title + ": " + r.message;
        status.retryIn = r.retryIn;
    }
}

bool updateResourceHealth(ResourceHealth& health, ResourceHealth::State state, std::string message,
                          std::chrono::milliseconds retryIn) {
    using State = ResourceHealth::State;
    if (health.state == state && health.message == message && health.retryIn == retryIn) return false;
    health.retryIn = retryIn;
    const bool wasLive = health.state == State::Synced;
    const bool isLive = state == State::Synced;
    if (health.state != state && (wasLive || isLive || !health.everSynced)) health.since = std::chrono::system_clock::now();
    health.state = state;
    health.message = std::move(message);
    if (isLive) health.everSynced = true;
    return true;
}

std::string_view linkStateName(LinkState state) {
    switch (state) {
    case LinkState::Connecting:
        return "connecting";
    case LinkState::Synced:
        return "synced";
    case LinkState::Reconnecting:
        return "reconnecting";
    case LinkState::Stale:
        return "stale";
    case LinkState::Error:
        return "error";
    }
    return "unknown";
}

std::string_view resourceStateName(ResourceHealth::State state) {
    using State = ResourceHealth::State;
    switch (state) {
    case State::Waiting:
        return "waiting";
    case State::Listing:
        return "listing";
    case State::Synced:
        return "synced";
    case State::Reconnecting:
        return "reconnecting";
    case State::NotInstalled:
        return "not installed";
    case State::Forbidden:
        return "forbidden";
    case State::Unauthorized:
        return "unauthorized";
    case State::Unreachable:
        return "unreachable";
    case State::Failing:
        return "failing";
    }
    return "unknown";
}

std::string formatUtc(std::chrono::system_clock::time_point time) {
    const std::tm parts = utcTime(time);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &parts);
    return buffer;
}

std::string withRetry(const std::string& message, std::chrono::milliseconds retryIn) {
    if (retryIn.count() <= 0 || message.empty()) return message;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, retryIn < std::chrono::seconds(10) ? "%.1f" : "%.0f",
                  static_cast<double>(retryIn.count()) / 1000.0);
    return message + "; retrying in " + seconds + " s";
}

std::string describeLinkState(const LiveStatus& status) {
    std::string text(linkStateName(status.state));
    if (status.state == LinkState::Stale) text += " since " + clockTime(status.since);
    else if (status.state != LinkState::Connecting && status.since.time_since_epoch().count() != 0)
        text += " at " + clockTime(status.since);
    if (!status.message.empty()) text += ": " + withRetry(status.message, status.retryIn);
    return text;
}

std::vector<std::string> resourceProblems(const LiveStatus& status) {
    std::vector<std::string> out;
    using State = ResourceHealth::State;
    for (const ResourceHealth& resource : status.resources) {
        // A lost watch is the link's state, said once for the whole source; these are each
        // resource's own lasting troubles.
        const bool lasting = resource.state == State::Forbidden || resource.state == State::Unauthorized ||
                             resource.state == State::Failing || resource.state == State::Unreachable;
        if (lasting && !resource.message.empty())
            out.push_back(resource.title + ": " + withRetry(resource.message, resource.retryIn));
    }
    return out;
}

} // namespace topodeck
