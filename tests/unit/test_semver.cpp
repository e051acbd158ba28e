// Semantic versions (core/values/semver.h): the strict grammar of semver 2.0.0 as
// github.com/blang/semver/v4 Parse applies it (Kubernetes reads DRA version attributes and CEL's
// semver() with it), Kubernetes' normalising parse (semver(s, true), k8s.io/apiserver
// pkg/cel/library/semverlib.go normalizeAndParse), precedence (semver.org section 11, whose
// examples are the ordered list below) and the canonical text.
#include "core/values/semver.h"
#include "support/test_program.h"

#include <QtTest>

#include <string>

using topodeck::Version;

namespace {

Version parsed(const QByteArray& text) {
    auto result = Version::parse(text.toStdString());
    if (!result) qFatal("unexpected parse failure for %s: %s", text.constData(), result.error().message.c_str());
    return *result;
}

} // namespace

class TestSemver : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parseValid_data() {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<qulonglong>("major");
        QTest::addColumn<qulonglong>("minor");
        QTest::addColumn<qulonglong>("patch");
        QTest::addColumn<QByteArray>("canonical");
        const auto add = [](const char* input, qulonglong major, qulonglong minor, qulonglong patch,
                            const char* canonical) {
            QTest::newRow(input) << QByteArray(input) << major << minor << patch << QByteArray(canonical);
        };
        add("0.0.0", 0, 0, 0, "0.0.0");
        add("1.2.3", 1, 2, 3, "1.2.3");
        add("10.0.0", 10, 0, 0, "10.0.0");          // NVIDIA GB200 cudaComputeCapability
        add("570.124.6", 570, 124, 6, "570.124.6"); // an NVIDIA driverVersion
        add("1.0.0-alpha", 1, 0, 0, "1.0.0-alpha");
        add("1.0.0-alpha.1", 1, 0, 0, "1.0.0-alpha.1");
        add("1.0.0-0.3.7", 1, 0, 0, "1.0.0-0.3.7");
        add("1.0.0-x.7.z.92", 1, 0, 0, "1.0.0-x.7.z.92");
        add("1.0.0-x-y-z.--", 1, 0, 0, "1.0.0-x-y-z.--");
        add("1.0.0+20130313144700", 1, 0, 0, "1.0.0+20130313144700");
        add("1.0.0-beta+exp.sha.5114f85", 1, 0, 0, "1.0.0-beta+exp.sha.5114f85");
        add("1.0.0+21AF26D3----117B344092BD", 1, 0, 0, "1.0.0+21AF26D3----117B344092BD");
        add("1.2.3+build.007", 1, 2, 3, "1.2.3+build.007"); // build identifiers may have leading zeros
        add("1.2.3-rc-1+b-2", 1, 2, 3, "1.2.3-rc-1+b-2");
        add("18446744073709551615.0.0", 18446744073709551615ULL, 0, 0, "18446744073709551615.0.0");
    }
    void parseValid() {
        QFETCH(QByteArray, input);
        QFETCH(qulonglong, major);
        QFETCH(qulonglong, minor);
        QFETCH(qulonglong, patch);
        QFETCH(QByteArray, canonical);
        const Version v = parsed(input);
        QCOMPARE(qulonglong(v.major()), major);
        QCOMPARE(qulonglong(v.minor()), minor);
        QCOMPARE(qulonglong(v.patch()), patch);
        QCOMPARE(QByteArray::fromStdString(v.toString()), canonical);
        QVERIFY(parsed(canonical) == v);
    }

    void parseInvalid_data() {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("fragment");
        const auto add = [](const char* name, const char* input, const char* fragment) {
            QTest::newRow(name) << QByteArray(input) << QByteArray(fragment);
        };
        add("empty", "", "empty");
        add("two parts", "1.2", "no MAJOR.MINOR.PATCH");
        add("one part", "1", "no MAJOR.MINOR.PATCH");
        add("v prefix", "v1.2.3", "invalid character(s) in major");
        add("leading zero major", "01.2.3", "major number must not contain leading zeroes");
        add("leading zero minor", "1.02.3", "minor number must not contain leading zeroes");
        add("leading zero patch", "1.2.03", "patch number must not contain leading zeroes");
        add("empty minor", "1..3", "minor number is empty");
        add("empty patch", "1.2.", "patch number is empty");
        add("four parts", "1.2.3.4", "invalid character(s) in patch");
        add("letters", "a.b.c", "invalid character(s) in major");
        add("space", "1.2.3 ", "invalid character(s) in patch");
        add("empty pre-release", "1.2.3-", "pre-release identifier is empty");
        add("empty pre-release part", "1.2.3-a..b", "pre-release identifier is empty");
        add("numeric pre-release with zero", "1.2.3-01",
            "numeric pre-release identifier must not contain leading zeroes");
        add("bad pre-release character", "1.2.3-a_b", "invalid character(s) in pre-release");
        add("empty build", "1.2.3+", "build metadata identifier is empty");
        add("bad build character", "1.2.3+a$b", "invalid character(s) in build metadata");
        add("major beyond 64 bits", "18446744073709551616.0.0", "does not fit 64 bits");
        add("pre-release beyond 64 bits", "1.0.0-18446744073709551616", "does not fit 64 bits");
        add("quantity", "200K", "no MAJOR.MINOR.PATCH");
        add("word", "Three", "no MAJOR.MINOR.PATCH");
    }
    void parseInvalid() {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, fragment);
        const auto result = Version::parse(input.toStdString());
        QVERIFY2(!result.ok(), input.constData());
        const QByteArray message = QByteArray::fromStdString(result.error().message);
        QVERIFY2(message.contains(fragment), message.constData());
        QVERIFY2(message.startsWith("invalid semantic version \""), message.constData());
    }

    // semver(s, true) in Kubernetes' CEL library.
    void parseNormalized_data() {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("canonical"); // empty: an error
        const auto add = [](const char* input, const char* canonical) {
            QTest::newRow(input) << QByteArray(input) << QByteArray(canonical);
        };
        add("v1.0.0", "1.0.0");
        add("1.0", "1.0.0");
        add("v1", "1.0.0");
        add("01.01.01", "1.1.1");
        add("v0.0.1", "0.0.1");
        add("00.000.0", "0.0.0");
        add("1.2.3-rc.1+b", "1.2.3-rc.1+b");
        add("1.0-rc", ""); // a short version cannot carry a pre-release
        add("1+b", "");
        add(" 1.0.0", ""); // no trimming, unlike blang's ParseTolerant
        add("vv1.0.0", "");
    }
    void parseNormalized() {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, canonical);
        const auto result = Version::parseNormalized(input.toStdString());
        if (canonical.isEmpty()) {
            QVERIFY2(!result.ok(), input.constData());
            return;
        }
        QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
        QCOMPARE(QByteArray::fromStdString(result->toString()), canonical);
    }

    // semver.org section 11: each version ranks below the next.
    void precedence() {
        const char* ordered[] = {"1.0.0-alpha",
                                 "1.0.0-alpha.1",
                                 "1.0.0-alpha.beta",
                                 "1.0.0-beta",
                                 "1.0.0-beta.2",
                                 "1.0.0-beta.11",
                                 "1.0.0-rc.1",
                                 "1.0.0",
                                 "1.0.1",
                                 "1.1.0",
                                 "2.0.0",
                                 "2.1.0",
                                 "2.1.1",
                                 "10.0.0",
                                 "570.124.6",
                                 "18446744073709551615.0.0"};
        const std::size_t n = std::size(ordered);
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < n; ++j) {
                const int expected = i < j ? -1 : (i > j ? 1 : 0);
                QVERIFY2(
                    parsed(ordered[i]).compare(parsed(ordered[j])) == expected,
                    qPrintable(QStringLiteral("%1 vs %2").arg(QLatin1String(ordered[i]), QLatin1String(ordered[j]))));
            }
        }
        // Numeric identifiers compare as numbers and below alphanumeric ones; ASCII order otherwise.
        QCOMPARE(parsed("1.0.0-2").compare(parsed("1.0.0-10")), -1);
        QCOMPARE(parsed("1.0.0-999").compare(parsed("1.0.0-a")), -1);
        QCOMPARE(parsed("1.0.0-B").compare(parsed("1.0.0-a")), -1);
        QCOMPARE(parsed("1.0.0-a.b").compare(parsed("1.0.0-a")), 1);
    }

    void buildMetadataIsIgnored() {
        QVERIFY(parsed("1.0.0+a") == parsed("1.0.0+b"));
        QCOMPARE(parsed("1.0.0+a").compare(parsed("1.0.0")), 0);
        QVERIFY(!(parsed("1.0.0-a") == parsed("1.0.0")));
        QCOMPARE(QByteArray::fromStdString(parsed("1.0.0+a.b").toString()), QByteArray("1.0.0+a.b"));
        QCOMPARE(parsed("1.0.0+a.b").build().size(), std::size_t(2));
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestSemver)
#include "test_semver.moc"
