// The slurmrestd client against a scripted loopback server: API version discovery, the JWT
// headers and where the token comes from, update_time and 304, and every failure as the state
// the source reports (401, 403, 404, 500 with Slurm's errors, refused, timed out). The real
// slurmrestd 22.05 is in tests/integration/test_slurm_live.cpp.
#include "core/text/base64.h"
#include "net/kubeconfig.h"
#include "net/slurm_rest_client.h"

#include "net_test_support.h"
#include "test_server.h"
#include "support/test_program.h"

#include <QElapsedTimer>
#include <QTest>

#include <atomic>

using namespace topodeck;
using namespace nettest;
using State = ResourceHealth::State;

namespace {

std::string base64url(std::string_view bytes) {
    std::string text = encodeBase64(bytes);
    for (char& c : text) c = c == '+' ? '-' : c == '/' ? '_' : c;
    while (!text.empty() && text.back() == '=') text.pop_back();
    return text;
}

// A token of the shape `scontrol token` prints (the signature is not checked client-side).
std::string token(std::string_view user, std::int64_t expires) {
    return base64url(R"({"alg":"HS256","typ":"JWT"})") + "." +
           base64url(R"({"exp":)" + std::to_string(expires) + R"(,"iat":1796120000,"sun":")" + std::string(user) + "\"}") +
           ".c2lnbmF0dXJl";
}

std::int64_t inAnHour() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count() + 3600;
}

const std::string kOpenapi2205 =
    R"({"openapi":"3.0.2","info":{"version":"0.0.38"},"paths":{"/slurm/v0.0.38/nodes":{},"/slurm/v0.0.38/jobs":{},)"
    R"("/slurm/v0.0.37/nodes":{},"/slurm/v0.0.36/nodes":{},"/slurm/v0.0.38/ping":{}}})";

SlurmTarget restTarget(const TestServer& server, const std::string& tokenFile) {
    SlurmTarget target;
    target.kind = SlurmTarget::Kind::Rest;
    target.url = server.url("");
    target.tokenFile = tokenFile;
    return target;
}

std::string headerOf(const std::string& request, std::string_view name) {
    const std::size_t at = request.find(std::string(name) + ": ");
    if (at == std::string::npos) return {};
    const std::size_t start = at + name.size() + 2;
    return request.substr(start, request.find("\r\n", start) - start);
}

} // namespace

class SlurmRestClientTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void targetFromArgument_data() {
        QTest::addColumn<QString>("argument");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<bool>("rest");
        QTest::newRow("cli") << QStringLiteral("cli") << true << false;
        QTest::newRow("http") << QStringLiteral("http://slurmctl:6820") << true << true;
        QTest::newRow("https") << QStringLiteral("https://slurm.example.com/api") << true << true;
        QTest::newRow("unix") << QStringLiteral("unix:/run/slurmrestd.sock") << true << true;
        QTest::newRow("no host") << QStringLiteral("http://") << false << false;
        QTest::newRow("no socket") << QStringLiteral("unix:") << false << false;
        QTest::newRow("bare host") << QStringLiteral("slurmctl:6820") << false << false;
        QTest::newRow("empty") << QString() << false << false;
    }
    void targetFromArgument() {
        QFETCH(QString, argument);
        QFETCH(bool, ok);
        QFETCH(bool, rest);
        const auto target = SlurmTarget::fromArgument(argument.toStdString());
        QCOMPARE(target.ok(), ok);
        if (ok) QCOMPARE(target->kind == SlurmTarget::Kind::Rest, rest);
        else QVERIFY2(target.error().message.starts_with("--slurm "), target.error().message.c_str());
    }

    void pickVersion_data() {
        QTest::addColumn<QString>("openapi");
        QTest::addColumn<QString>("version"); // or the start of the error
        QTest::newRow("22.05") << QString::fromStdString(kOpenapi2205) << QStringLiteral("v0.0.38");
        // 23.11 lists its paths with a trailing slash, and slurmdbd's beside them.
        QTest::newRow("23.11") << QStringLiteral(R"({"paths":{"/slurm/v0.0.40/nodes/":{},"/slurm/v0.0.39/nodes/":{},)"
                                                 R"("/slurmdb/v0.0.40/jobs/":{},"/slurm/v0.0.40/node/{node_name}":{}}})")
                               << QStringLiteral("v0.0.40");
        QTest::newRow("newer than we read") << QStringLiteral(R"({"paths":{"/slurm/v0.0.45/nodes/":{},"/slurm/v0.0.44/nodes/":{}}})")
                                            << QStringLiteral("v0.0.44");
        QTest::newRow("only old ones") << QStringLiteral(R"({"paths":{"/slurm/v0.0.35/nodes":{}}})")
                                       << QStringLiteral("the server offers v0.0.35, none of which");
        QTest::newRow("no nodes endpoint") << QStringLiteral(R"({"paths":{"/slurm/v0.0.38/ping":{}}})")
                                           << QStringLiteral("the server lists no /slurm/<version>/nodes");
        QTest::newRow("not json") << QStringLiteral("<html>") << QStringLiteral("not JSON");
    }
    void pickVersion() {
        QFETCH(QString, openapi);
        QFETCH(QString, version);
        std::string text = openapi.toStdString();
        const auto picked = pickSlurmApiVersion(text);
        if (version.startsWith(QLatin1Char('v'))) {
            QVERIFY2(picked.ok(), picked.ok() ? "" : picked.error().message.c_str());
            QCOMPARE(QString::fromStdString(*picked), version);
        } else {
            QVERIFY(!picked.ok());
            QVERIFY2(QString::fromStdString(picked.error().message).startsWith(version), picked.error().message.c_str());
        }
    }

    void jwtClaims() {
        const auto claims = readSlurmJwt(token("alice", 1796200000));
        QVERIFY(claims.ok());
        QCOMPARE(QString::fromStdString(claims->user), QStringLiteral("alice"));
        QCOMPARE(claims->expires.value_or(0), 1796200000LL);
        for (const char* bad : {"not-a-token", "a.b", "a.!!!.c", "eyJhIjoxfQ"})
            QVERIFY2(!readSlurmJwt(bad).ok(), bad);
        QVERIFY(!readSlurmJwt(base64url("{}") + "." + base64url("[1,2]") + ".x").ok());
    }

    // Discovery, then a GET with the token's user, update_time, a 304.
    void discoversAndAsks() {
        QTemporaryDir dir;
        const std::string jwt = token("alice", inAnHour());
        const std::string file = writeFile(dir, "jwt", jwt + "\n");
        TestServer server(1, [&](int fd, const std::string& request) {
            if (request.starts_with("GET /openapi/v3 ")) return writeAll(fd, httpResponse(404, "not here"));
            if (request.starts_with("GET /openapi ")) return writeAll(fd, httpResponse(200, kOpenapi2205));
            if (request.find("update_time=") != std::string::npos) return writeAll(fd, httpResponse(304, ""));
            return writeAll(fd, httpResponse(200, R"({"nodes":[]})"));
        });
        SlurmRestClient client(restTarget(server, file), std::chrono::seconds(5));
        QCOMPARE(client.discoverVersion().outcome, SlurmFetch::Outcome::Fresh);
        QCOMPARE(QString::fromStdString(client.apiVersion()), QStringLiteral("v0.0.38"));
        const SlurmFetch fresh = client.get("nodes", 0);
        QCOMPARE(fresh.outcome, SlurmFetch::Outcome::Fresh);
        QCOMPARE(QString::fromStdString(fresh.body), QStringLiteral(R"({"nodes":[]})"));
        QCOMPARE(client.get("jobs", 1796123456).outcome, SlurmFetch::Outcome::NotModified);
        const std::vector<std::string> requests = server.requests();
        QCOMPARE(requests.size(), std::size_t{4});
        QVERIFY(requests[2].starts_with("GET /slurm/v0.0.38/nodes HTTP/1.1"));
        QVERIFY(requests[3].starts_with("GET /slurm/v0.0.38/jobs?update_time=1796123456 HTTP/1.1"));
        QCOMPARE(QString::fromStdString(headerOf(requests[2], "X-SLURM-USER-NAME")), QStringLiteral("alice"));
        QCOMPARE(headerOf(requests[2], "X-SLURM-USER-TOKEN"), jwt);
    }

    void failures_data() {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("body");
        QTest::addColumn<int>("state");
        QTest::addColumn<QString>("says");
        QTest::newRow("401") << 401 << QStringLiteral("Authentication failure") << int(State::Unauthorized)
                             << QStringLiteral("refused the credentials (HTTP 401: Authentication failure)");
        QTest::newRow("403") << 403 << QString() << int(State::Forbidden) << QStringLiteral("no permission (HTTP 403)");
        QTest::newRow("404") << 404 << QStringLiteral("Not Found") << int(State::Failing)
                             << QStringLiteral("is its openapi/v0.0.38 plugin loaded?");
        QTest::newRow("500 with Slurm's errors")
            << 500
            << QStringLiteral(R"({"errors":[{"description":"Failed while looking for jobs","error_number":-1,)"
                              R"("error":"Unspecified error","source":"slurm_load_jobs"}],"jobs":[]})")
            << int(State::Failing) << QStringLiteral("slurm_load_jobs: Failed while looking for jobs (Unspecified error)");
        QTest::newRow("502 from a proxy") << 502 << QStringLiteral("<html>Bad Gateway</html>") << int(State::Failing)
                                          << QStringLiteral("HTTP 502: <html>Bad Gateway</html>");
    }
    void failures() {
        QFETCH(int, status);
        QFETCH(QString, body);
        QFETCH(int, state);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const std::string jwt = token("root", inAnHour());
        const std::string file = writeFile(dir, "jwt", jwt);
        TestServer server(1, [&](int fd, const std::string&) { return writeAll(fd, httpResponse(status, body.toStdString())); });
        SlurmTarget target = restTarget(server, file);
        target.apiVersion = "v0.0.38";
        SlurmRestClient client(target, std::chrono::seconds(5));
        const SlurmFetch fetch = client.get("jobs", 0);
        QCOMPARE(fetch.outcome, SlurmFetch::Outcome::Failed);
        QCOMPARE(int(fetch.failure), state);
        QVERIFY2(QString::fromStdString(fetch.message).contains(says), fetch.message.c_str());
        QVERIFY(fetch.message.find(jwt) == std::string::npos);
    }

    void unreachable() {
        SlurmTarget target;
        target.kind = SlurmTarget::Kind::Rest;
        target.url = "http://127.0.0.1:" + std::to_string(closedPort());
        target.apiVersion = "v0.0.38";
        EnvGuard env("SLURM_JWT");
        qputenv("SLURM_JWT", QByteArray::fromStdString(token("root", inAnHour())));
        SlurmRestClient client(target, std::chrono::seconds(5));
        const SlurmFetch fetch = client.get("nodes", 0);
        QCOMPARE(fetch.failure, State::Unreachable);
        QVERIFY2(fetch.message.starts_with("cannot reach slurmrestd http://127.0.0.1:"), fetch.message.c_str());
    }

    void timesOut() {
        QTemporaryDir dir;
        const std::string file = writeFile(dir, "jwt", token("root", inAnHour()));
        TestServer server(1, [](int fd, const std::string&) {
            holdUntilClosed(fd);
            return false;
        });
        SlurmTarget target = restTarget(server, file);
        target.apiVersion = "v0.0.38";
        SlurmRestClient client(target, std::chrono::milliseconds(300));
        const SlurmFetch fetch = client.get("nodes", 0);
        QCOMPARE(fetch.failure, State::Unreachable);
    }

    // A reply larger than the limit is refused, with or without a Content-Length: Failing (the
    // server answered), naming the limit and how to raise it, never the token; the next reply
    // within the limit is read as usual.
    void oversizeReplyIsRefused_data() {
        QTest::addColumn<bool>("chunked");
        QTest::newRow("with a length") << false;
        QTest::newRow("chunked") << true;
    }
    void oversizeReplyIsRefused() {
        QFETCH(bool, chunked);
        QTemporaryDir dir;
        const std::string jwt = token("root", inAnHour());
        const std::string file = writeFile(dir, "jwt", jwt);
        std::atomic<int> answered{0};
        TestServer server(2, [&](int fd, const std::string&) {
            if (answered++ > 0) return writeAll(fd, httpResponse(200, R"({"nodes":[]})"));
            const std::string nodes = "{\"nodes\":[" + std::string(200 * 1024, ' ') + "]}";
            if (!chunked) return writeAll(fd, httpResponse(200, nodes)) && false;
            bool ok = writeAll(fd, kChunkedHeader);
            for (std::size_t at = 0; ok && at < nodes.size(); at += 8192) ok = writeAll(fd, chunk(nodes.substr(at, 8192)));
            return ok && writeAll(fd, "0\r\n\r\n") && false;
        });
        SlurmTarget target = restTarget(server, file);
        target.apiVersion = "v0.0.38";
        ReadLimits limits;
        limits.slurmReply = 100 * 1024;
        SlurmRestClient client(target, std::chrono::seconds(5), limits);
        const SlurmFetch fetch = client.get("nodes", 0);
        QCOMPARE(fetch.outcome, SlurmFetch::Outcome::Failed);
        QCOMPARE(fetch.failure, State::Failing);
        QVERIFY(fetch.body.empty());
        const std::string expected = chunked ? "its body is larger than the limit of 100 KiB"
                                             : "its Content-Length of " + std::to_string(200 * 1024 + 12) +
                                                   " bytes is above the limit of 100 KiB";
        QVERIFY2(fetch.message.starts_with("slurmrestd " + server.url("") + ": refused the response to GET " +
                                           server.url("/slurm/v0.0.38/nodes") + ": " + expected),
                 fetch.message.c_str());
        QVERIFY2(fetch.message.ends_with("; raise it with TOPODECK_MAX_SLURM_REPLY (e.g. TOPODECK_MAX_SLURM_REPLY=200KiB)"),
                 fetch.message.c_str());
        QVERIFY(fetch.message.find(jwt) == std::string::npos);

        const SlurmFetch next = client.get("nodes", 0);
        QCOMPARE(next.outcome, SlurmFetch::Outcome::Fresh);
        QCOMPARE(QString::fromStdString(next.body), QStringLiteral(R"({"nodes":[]})"));
    }

    // A reply that stops halfway fails at the low-speed deadline, well before the request timeout.
    void stalledReplyFails() {
        QTemporaryDir dir;
        const std::string file = writeFile(dir, "jwt", token("root", inAnHour()));
        TestServer server(1, [](int fd, const std::string&) {
            if (writeAll(fd, "HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n{\"nodes\":[")) holdUntilClosed(fd);
            return false;
        });
        SlurmTarget target = restTarget(server, file);
        target.apiVersion = "v0.0.38";
        ReadLimits limits;
        limits.lowSpeedTime = std::chrono::milliseconds(400);
        SlurmRestClient client(target, std::chrono::seconds(20), limits);
        QElapsedTimer timer;
        timer.start();
        const SlurmFetch fetch = client.get("nodes", 0);
        QVERIFY(timer.elapsed() < 3000);
        QCOMPARE(fetch.failure, State::Unreachable);
        QVERIFY2(fetch.message.find("the server stalled in the middle of the response to GET " +
                                    server.url("/slurm/v0.0.38/nodes")) != std::string::npos,
                 fetch.message.c_str());
    }

    // The token is checked before anything is sent: none, unreadable, not a JWT, expired.
    void tokenProblems_data() {
        QTest::addColumn<QString>("content"); // of the token file; "-" for no file and no SLURM_JWT
        QTest::addColumn<QString>("says");
        QTest::newRow("none") << QStringLiteral("-") << QStringLiteral("no token for slurmrestd");
        QTest::newRow("not a JWT") << QStringLiteral("hunter2") << QStringLiteral("the token is not a JWT");
        QTest::newRow("expired") << QString::fromStdString(token("root", 1700000000))
                                 << QStringLiteral("the token expired at 2023-11-14T22:13:20Z");
    }
    void tokenProblems() {
        QFETCH(QString, content);
        QFETCH(QString, says);
        QTemporaryDir dir;
        EnvGuard env("SLURM_JWT");
        qunsetenv("SLURM_JWT");
        TestServer server(0, [](int, const std::string&) { return false; });
        const std::string file = content == QLatin1String("-") ? std::string() : writeFile(dir, "jwt", content.toStdString());
        SlurmTarget target = restTarget(server, file);
        target.apiVersion = "v0.0.38";
        SlurmRestClient client(target, std::chrono::seconds(2));
        const SlurmFetch fetch = client.get("nodes", 0);
        QCOMPARE(fetch.failure, State::Unauthorized);
        QVERIFY2(QString::fromStdString(fetch.message).contains(says), fetch.message.c_str());
        QVERIFY2(QString::fromStdString(fetch.message).contains(QStringLiteral("scontrol token")) ||
                     content != QLatin1String("-"),
                 fetch.message.c_str());
        QCOMPARE(server.accepted(), 0);
    }

    // A rotated token file is read again; a unix socket needs no token (rest_auth/local).
    void tokenFileRotates() {
        QTemporaryDir dir;
        const std::string first = token("root", inAnHour());
        const std::string second = token("svc", inAnHour() + 10);
        const std::string file = writeFile(dir, "jwt", first);
        TestServer server(1, [](int fd, const std::string&) { return writeAll(fd, httpResponse(200, "{}")); });
        SlurmTarget target = restTarget(server, file);
        target.apiVersion = "v0.0.38";
        SlurmRestClient client(target, std::chrono::seconds(5));
        QCOMPARE(client.get("nodes", 0).outcome, SlurmFetch::Outcome::Fresh);
        QTest::qWait(20); // a new mtime
        writeFile(dir, "jwt", second + "\n");
        QCOMPARE(client.get("nodes", 0).outcome, SlurmFetch::Outcome::Fresh);
        const std::vector<std::string> requests = server.requests();
        QCOMPARE(requests.size(), std::size_t{2});
        QCOMPARE(headerOf(requests[0], "X-SLURM-USER-TOKEN"), first);
        QCOMPARE(headerOf(requests[1], "X-SLURM-USER-TOKEN"), second);
        QCOMPARE(QString::fromStdString(headerOf(requests[1], "X-SLURM-USER-NAME")), QStringLiteral("svc"));
    }
};

TOPODECK_TEST_GUILESS_MAIN(SlurmRestClientTest)
#include "test_slurm_rest_client.moc"
