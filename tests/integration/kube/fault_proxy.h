#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

// A TLS proxy between a client under test and a real kube-apiserver that injects, on demand, the
// faults a real server will not produce when asked: dropped watches, 410 Gone, 5xx, slow answers,
// 403, refused connections, a watch stream held back and then released at once, and answers
// inflated past a limit, stalled halfway or trickled. It terminates
// TLS on both sides (its own certificate for the client, the server's CA upstream) and speaks
// HTTP/1.1 to both, forwarding requests and responses byte for byte unless a fault says otherwise.
// It logs request lines, never headers, so tokens stay out of test output.
class FaultProxy {
public:
    struct Options {
        int upstreamPort = 0; // the API server, on 127.0.0.1
        std::string upstreamCa;
        std::string certificateFile; // what the proxy shows clients (valid for 127.0.0.1)
        std::string keyFile;
    };

    explicit FaultProxy(Options options);
    ~FaultProxy();
    FaultProxy(const FaultProxy&) = delete;
    FaultProxy& operator=(const FaultProxy&) = delete;

    bool ok() const { return m_listener >= 0; }
    std::string url() const { return "https://127.0.0.1:" + std::to_string(m_port); }

    // Faults. `match` is a substring of "METHOD /path?query"; each fault applies to the next
    // `count` requests that match, in the order the faults were added.
    void failNext(std::string match, int status, int count = 1);
    // The next matching watch gets 200 and a single ERROR event with a 410 Status, then ends.
    void expireNextWatch(std::string match);
    // The next matching request is forwarded only after `delay`.
    void delayNext(std::string match, std::chrono::milliseconds delay, int count = 1);
    // The next matching request waits until resume().
    void pauseNext(std::string match);
    void resume();
    // Body faults: the next matching response (a list page, a discovery document) or, on a watch,
    // the next event, also on a watch already open, is changed on its way to the client.
    // Inflated: `bytes` of padding in a JSON string field up front (the JSON stays valid).
    void inflateNext(std::string match, std::size_t bytes);
    // Stalled: the first half is sent, then nothing until the client goes away.
    void stallNext(std::string match);
    // Trickled: sent at `bytesPerSecond`, a tenth of it every 100 ms.
    void trickleNext(std::string match, std::size_t bytesPerSecond);
    // Closes every connection that is carrying a watch, mid-stream, without a last chunk.
    void dropWatches();
    // While set, the server seems down: new connections are closed at once, and so is every
    // connection at its next request or watch event.
    void refuseConnections(bool refuse);
    // While held, watch responses are read from the server but not passed on; releasing sends
    // everything held at once.
    void holdWatches(bool hold);

    // Request lines seen so far ("GET /api/v1/pods?limit=500"), and how many contained `match`.
    std::vector<std::string> requests() const;
    int count(std::string_view match) const;
    int watchesOpen() const { return m_watchesOpen.load(); }
    int connectionsAccepted() const { return m_accepted.load(); }

private:
    struct Rule {
        enum class Kind { Fail, Expire, Delay, Pause, Inflate, Stall, Trickle } kind;
        std::string match;
        int status = 0;
        std::chrono::milliseconds delay{0};
        int remaining = 1;
        std::size_t bytes = 0; // Inflate: the padding; Trickle: bytes a second

        bool altersBody() const { return kind == Kind::Inflate || kind == Kind::Stall || kind == Kind::Trickle; }
    };
    struct Connection;

    void acceptLoop();
    void serve(int fd);
    // The first rule for this request (forEvent: for the next event of its watch, body rules
    // only). A watch request leaves body rules to its events.
    bool takeRule(const std::string& requestLine, Rule& out, bool isWatch, bool forEvent = false);

    Options m_options;
    int m_listener = -1;
    int m_port = 0;
    void* m_serverContext = nullptr; // SSL_CTX*, kept out of the header
    void* m_clientContext = nullptr;
    std::atomic<bool> m_stopping{false};
    std::atomic<bool> m_refusing{false};
    std::atomic<bool> m_holding{false};
    std::atomic<std::uint64_t> m_dropGeneration{0};
    std::atomic<int> m_watchesOpen{0};
    std::atomic<int> m_accepted{0};
    std::thread m_acceptThread;

    mutable std::mutex m_mutex;
    std::condition_variable m_resumed;
    bool m_paused = false;
    std::vector<Rule> m_rules;
    std::vector<std::string> m_requests;
    std::vector<std::thread> m_connectionThreads;
};

// A plain HTTP proxy that only tunnels (CONNECT host:port), the kind a kubeconfig's proxy-url
// names: it counts the tunnels it made, and passes bytes through untouched.
class TunnelProxy {
public:
    TunnelProxy();
    ~TunnelProxy();
    TunnelProxy(const TunnelProxy&) = delete;
    TunnelProxy& operator=(const TunnelProxy&) = delete;

    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
    int tunnels() const { return m_tunnels.load(); }

private:
    void acceptLoop();
    void tunnel(int client);

    int m_listener = -1;
    int m_port = 0;
    std::atomic<bool> m_stopping{false};
    std::atomic<int> m_tunnels{0};
    std::thread m_acceptThread;
    std::mutex m_mutex;
    std::vector<std::thread> m_threads;
};
