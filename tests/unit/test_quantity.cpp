// Kubernetes resource quantities: parsing, canonical strings, rounding, arithmetic and order.
// Expected values follow k8s.io/apimachinery/pkg/api/resource (ParseQuantity, String, Value,
// MilliValue, Add, Sub, Cmp).
#include "core/values/quantity.h"
#include "support/test_program.h"

#include <QtTest>

#include <cstdint>
#include <string>

using topodeck::Quantity;

namespace {

constexpr qint64 kMax = 9'223'372'036'854'775'807;
constexpr qint64 kMin = -kMax - 1;
constexpr int D = static_cast<int>(Quantity::Format::DecimalSI);
constexpr int B = static_cast<int>(Quantity::Format::BinarySI);
constexpr int X = static_cast<int>(Quantity::Format::DecimalExponent);

Quantity parsed(const QByteArray& text) {
    auto result = Quantity::parse(text.toStdString());
    if (!result) qFatal("unexpected parse failure for %s: %s", text.constData(), result.error().message.c_str());
    return *result;
}

QByteArray str(const Quantity& q) {
    return QByteArray::fromStdString(q.toString());
}

} // namespace

class TestQuantity : public QObject {
    Q_OBJECT

private:
    static void addValid(const char* input, qint64 value, qint64 milli, const char* canonical, int format) {
        QTest::newRow(input) << QByteArray(input) << value << milli << QByteArray(canonical) << format;
    }

    static void addInvalid(const char* name, const char* input, const char* fragment) {
        QTest::newRow(name) << QByteArray(input) << QByteArray(fragment);
    }

private Q_SLOTS:
    void parseValid_data() {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<qint64>("milli");
        QTest::addColumn<QByteArray>("canonical");
        QTest::addColumn<int>("format");

        // Plain and decimal SI.
        addValid("0", 0, 0, "0", D);
        addValid("1", 1, 1000, "1", D);
        addValid("00100", 100, 100000, "100", D);
        addValid("100m", 1, 100, "100m", D);
        addValid("1.5", 2, 1500, "1500m", D);
        addValid("0.25", 1, 250, "250m", D);
        addValid("1000m", 1, 1000, "1", D);
        addValid("1500m", 2, 1500, "1500m", D);
        addValid("1.0001", 2, 1001, "1000100u", D);
        addValid("2k", 2000, 2000000, "2k", D);
        addValid("1.5k", 1500, 1500000, "1500", D);
        addValid("1500", 1500, 1500000, "1500", D);
        addValid("1M", 1000000, 1000000000, "1M", D);
        addValid("1000M", 1000000000, 1000000000000, "1G", D);
        addValid("1T", 1000000000000, 1000000000000000, "1T", D);
        addValid("2P", 2000000000000000, 2000000000000000000, "2P", D);
        addValid("1E", 1000000000000000000, kMax, "1E", D);
        // Numbers with an empty side of the point, and explicit signs.
        addValid(".5", 1, 500, "500m", D);
        addValid("5.", 5, 5000, "5", D);
        addValid("1.G", 1000000000, 1000000000000, "1G", D);
        addValid("0.0", 0, 0, "0", D);
        addValid("+5", 5, 5000, "5", D);
        addValid("-5", -5, -5000, "-5", D);
        addValid("-1.5", -2, -1500, "-1500m", D);
        addValid("-100m", -1, -100, "-100m", D);
        // Decimal exponents.
        addValid("1e3", 1000, 1000000, "1e3", X);
        addValid("1E3", 1000, 1000000, "1e3", X);
        addValid("1e0", 1, 1000, "1", X);
        addValid("1.5e1", 15, 15000, "15", X);
        addValid("1.5E-2", 1, 15, "15e-3", X);
        addValid("1e-3", 1, 1, "1e-3", X);
        addValid("1.2e3", 1200, 1200000, "1200", X);
        addValid("1.3E+6", 1300000, 1300000000, "1300e3", X);
        addValid("0.5e-9", 1, 1, "1e-9", X);
        addValid("1e-12", 1, 1, "1e-9", X);
        // Binary SI.
        addValid("1Ki", 1024, 1024000, "1Ki", B);
        addValid("0Ki", 0, 0, "0", B);
        addValid("4Gi", 4294967296, 4294967296000, "4Gi", B);
        addValid("1024Ki", 1048576, 1048576000, "1Mi", B);
        addValid("100Mi", 104857600, 104857600000, "100Mi", B);
        addValid("1536Mi", 1610612736, 1610612736000, "1536Mi", B);
        addValid("0.5Gi", 536870912, 536870912000, "512Mi", B);
        addValid("1.25Gi", 1342177280, 1342177280000, "1280Mi", B);
        addValid("10Ti", 10995116277760, 10995116277760000, "10Ti", B);
        addValid("1Pi", 1125899906842624, 1125899906842624000, "1Pi", B);
        addValid("7Ei", 8070450532247928832, kMax, "7Ei", B);
        // Binary values that are not whole multiples of 1Ki print in decimal SI.
        addValid("1.5Ki", 1536, 1536000, "1536", B);
        addValid("0.5Ki", 512, 512000, "512", B);
        addValid("100.035Ki", 102436, 102435840, "102435840m", B);
        addValid(".001Ki", 2, 1024, "1024m", B);
        // Below one unit a binary value becomes decimal SI, as Kubernetes does.
        addValid("0.000000000001Ki", 1, 1, "2n", D);
        // Tiny values: nano precision, finer input rounds up in magnitude.
        addValid("1n", 1, 1, "1n", D);
        addValid("0.1n", 1, 1, "1n", D);
        addValid("-0.1n", -1, -1, "-1n", D);
        addValid("3.001n", 1, 1, "4n", D);
        addValid("0.0000000005", 1, 1, "1n", D);
        addValid("123456789n", 1, 124, "123456789n", D);
        addValid("1u", 1, 1, "1u", D);
        addValid("0.5m", 1, 1, "500u", D);
        addValid("1000u", 1, 1, "1m", D);
        // Huge values: value()/milliValue() saturate, binary suffixes cap at 2^63-1 units.
        addValid("8Ei", kMax, kMax, "9223372036854775807", B);
        addValid("9223372036854775807Ki", kMax, kMax, "9223372036854775807", B);
        addValid("9223372036854775807", kMax, kMax, "9223372036854775807", D);
        addValid("9223372036854775808", kMax, kMax, "9223372036854775808", D);
        addValid("-9223372036854775809", kMin, kMin, "-9223372036854775809", D);
        addValid("12E", kMax, kMax, "12E", D);
        addValid("1000E", kMax, kMax, "1000E", D);
        addValid("1e20", kMax, kMax, "100e18", X);
        addValid("1e29", kMax, kMax, "100e27", X);
    }

    void parseValid() {
        QFETCH(QByteArray, input);
        QFETCH(qint64, value);
        QFETCH(qint64, milli);
        QFETCH(QByteArray, canonical);
        QFETCH(int, format);

        auto result = Quantity::parse(input.toStdString());
        QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
        const Quantity q = *result;
        QCOMPARE(q.value(), value);
        QCOMPARE(q.milliValue(), milli);
        QCOMPARE(str(q), canonical);
        QCOMPARE(static_cast<int>(q.format()), format);
        QCOMPARE(q.isZero(), value == 0);

        // The canonical string reads back as the same amount and prints the same again.
        const Quantity again = parsed(canonical);
        QVERIFY(again == q);
        QCOMPARE(str(again), canonical);
    }

    void parseNegated_data() { parseValid_data(); }

    void parseNegated() {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, canonical);
        QFETCH(int, format);
        if (input.startsWith('-') || input.startsWith('+')) QSKIP("already signed");

        const Quantity q = parsed(input);
        const Quantity negative = parsed(QByteArray("-").append(input));
        QVERIFY(negative.nanos() == -q.nanos());
        QCOMPARE(static_cast<int>(negative.format()), format);
        const QByteArray negatedCanonical = q.isZero() ? QByteArray("0") : QByteArray("-").append(canonical);
        QCOMPARE(str(negative), negatedCanonical);
        // Rounding is away from zero, so it is symmetric unless it saturated.
        if (q.value() != kMax) QCOMPARE(negative.value(), -q.value());
        if (q.milliValue() != kMax) QCOMPARE(negative.milliValue(), -q.milliValue());
    }

    void parseInvalid_data() {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("fragment");

        addInvalid("empty", "", "empty");
        addInvalid("leading space", " 1", "whitespace");
        addInvalid("trailing space", "1 ", "whitespace");
        addInvalid("only space", " ", "whitespace");
        addInvalid("trailing newline", "1\n", "whitespace");
        addInvalid("upper-case k", "1K", "unknown suffix \"K\"");
        addInvalid("kb", "1kb", "unknown suffix \"kb\"");
        addInvalid("Gb", "1Gb", "unknown suffix \"Gb\"");
        addInvalid("mi", "1mi", "unknown suffix \"mi\"");
        addInvalid("ki", "1ki", "unknown suffix \"ki\"");
        addInvalid("KI", "1KI", "unknown suffix \"KI\"");
        addInvalid("i", "1i", "unknown suffix \"i\"");
        addInvalid("fraction i", ".5i", "unknown suffix \"i\"");
        addInvalid("am", "0.1am", "unknown suffix \"am\"");
        addInvalid("digits after suffix", "1Ki5", "unknown suffix \"Ki5\"");
        addInvalid("space before suffix", "1 Gi", "unknown suffix \" Gi\"");
        addInvalid("two points", "1.1.M", "unknown suffix \".M\"");
        addInvalid("plus inside", "1+1.0M", "unknown suffix \"+1.0M\"");
        addInvalid("comma", "1,5", "unknown suffix \",5\"");
        addInvalid("hex", "0x10", "unknown suffix \"x10\"");
        addInvalid("bare e", "1e", "unknown suffix \"e\"");
        addInvalid("exponent sign only", "1e-", "unknown suffix \"e-\"");
        addInvalid("exponent sign only negative", "-3.01e-", "unknown suffix \"e-\"");
        addInvalid("fractional exponent", "1e1.5", "unknown suffix \"e1.5\"");
        addInvalid("double exponent", "1e3e3", "unknown suffix \"e3e3\"");
        addInvalid("double sign", "--1", "more than one sign");
        addInvalid("mixed signs", "+-1", "more than one sign");
        addInvalid("word", "abc", "expected a number");
        addInvalid("bare binary suffix", "Gi", "expected a number");
        addInvalid("bare decimal suffix", "k", "expected a number");
        addInvalid("bare point", ".", "expected a number");
        addInvalid("bare minus", "-", "expected a number");
        addInvalid("bare plus", "+", "expected a number");
        addInvalid("minus point", "-.", "expected a number");
        addInvalid("infinity", "Infinity", "expected a number");
        addInvalid("nan", "NaN", "expected a number");
        addInvalid("arabic digit", "\xd9\xa1", "expected a number");
        addInvalid("exponent beyond int64", "1e99999999999999999999", "exponent out of range");
        addInvalid("1e30", "1e30", "too large");
        addInvalid("int64 max exponent", "1e9223372036854775807", "too large");
        addInvalid("42 digits", "100000000000000000000000000000000000000000", "too large");
        addInvalid("beyond 1.7e29 with suffix", "200000000000E", "too large");
    }

    void parseInvalid() {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, fragment);

        auto result = Quantity::parse(input.toStdString());
        QVERIFY2(!result.ok(), input.constData());
        const QByteArray message = QByteArray::fromStdString(result.error().message);
        const QByteArray quoted = QByteArray("\"").append(input).append('"');
        QVERIFY2(message.contains(quoted), message.constData());
        QVERIFY2(message.contains(fragment), message.constData());
    }

    void longInputIsShortenedInMessage() {
        const std::string input = std::string(200, '1') + "x";
        auto result = Quantity::parse(input);
        QVERIFY(!result.ok());
        QVERIFY(result.error().message.size() < 200);
        QVERIFY(result.error().message.find("...") != std::string::npos);
    }

    void arithmetic_data() {
        QTest::addColumn<QByteArray>("a");
        QTest::addColumn<char>("op");
        QTest::addColumn<QByteArray>("b");
        QTest::addColumn<QByteArray>("expected");
        QTest::addColumn<int>("format");

        auto row = [](const char* a, char op, const char* b, const char* expected, int format) {
            QTest::addRow("%s %c %s", a, op, b)
                << QByteArray(a) << op << QByteArray(b) << QByteArray(expected) << format;
        };
        row("1", '+', "500m", "1500m", D);
        row("1.5", '+', "1.5", "3", D);
        row("2k", '+', "1", "2001", D);
        row("8", '+', "-3", "5", D);
        row("1n", '+', "1n", "2n", D);
        row("1Gi", '+', "512Mi", "1536Mi", B);
        row("512Mi", '+', "512Mi", "1Gi", B);
        // The left operand's format wins ...
        row("1Gi", '+', "1G", "2073741824", B);
        row("1G", '+', "1Gi", "2073741824", D);
        row("1e3", '+', "1k", "2e3", X);
        row("1k", '+', "1e3", "2k", D);
        row("1e3", '+', "1e3", "2e3", X);
        // ... unless it is zero, then the right operand's format is taken (Quantity.Add/Sub).
        row("0", '+', "1Gi", "1Gi", B);
        row("1Gi", '+', "0", "1Gi", B);
        row("0Ki", '+', "100m", "100m", D);
        row("0", '-', "1Gi", "-1Gi", B);
        row("4Gi", '-', "1Gi", "3Gi", B);
        row("1Gi", '-', "1Gi", "0", B);
        row("100m", '-', "100m", "0", D);
        row("1", '-', "1500m", "-500m", D);
        row("1", '-', "-1", "2", D);
        // Sums beyond int64 stay exact.
        row("8Ei", '+', "8Ei", "18446744073709551614", B);
        row("9E", '+', "9E", "18E", D);
    }

    void arithmetic() {
        QFETCH(QByteArray, a);
        QFETCH(char, op);
        QFETCH(QByteArray, b);
        QFETCH(QByteArray, expected);
        QFETCH(int, format);

        const Quantity left = parsed(a);
        const Quantity right = parsed(b);
        Quantity inPlace = left;
        const Quantity result = op == '+' ? left + right : left - right;
        if (op == '+')
            inPlace += right;
        else
            inPlace -= right;
        QCOMPARE(str(result), expected);
        QCOMPARE(static_cast<int>(result.format()), format);
        QCOMPARE(str(inPlace), expected);
        QVERIFY(result.nanos() == (op == '+' ? left.nanos() + right.nanos() : left.nanos() - right.nanos()));
    }

    void arithmeticSaturates() {
        const __int128 max = static_cast<__int128>((static_cast<unsigned __int128>(1) << 127) - 1);
        const Quantity big = Quantity::fromNanos(max);
        const Quantity sum = big + big;
        QVERIFY(sum == big);
        QCOMPARE(sum.value(), kMax);
        const Quantity difference = Quantity::fromNanos(-max) - big;
        QVERIFY(difference.nanos() == -max);
        QCOMPARE(difference.value(), kMin);
        QCOMPARE(difference.milliValue(), kMin);
    }

    void ordering_data() {
        QTest::addColumn<QByteArray>("a");
        QTest::addColumn<QByteArray>("b");
        QTest::addColumn<int>("expected");

        auto row = [](const char* a, const char* b, int expected) {
            QTest::addRow("%s vs %s", a, b) << QByteArray(a) << QByteArray(b) << expected;
        };
        row("0", "0", 0);
        row("100m", "50m", 1);
        row("50m", "100m", -1);
        row("10000T", "100Gi", 1);
        row("1Gi", "1G", 1);
        row("1000m", "1", 0);
        row("1Ki", "1024", 0);
        row("1e3", "1k", 0);
        row("1.5Gi", "1536Mi", 0);
        row("999m", "1", -1);
        row("-1", "0", -1);
        row("-1Gi", "-1G", -1);
        row("1n", "0", 1);
        row("0.1n", "1n", 0);
        row("8Ei", "9223372036854775807", 0);
        row("12E", "8Ei", 1);
        row("-9223372036854775809", "-8Ei", -1);
    }

    void ordering() {
        QFETCH(QByteArray, a);
        QFETCH(QByteArray, b);
        QFETCH(int, expected);

        const Quantity x = parsed(a);
        const Quantity y = parsed(b);
        QCOMPARE(x == y, expected == 0);
        QCOMPARE(x < y, expected < 0);
        QCOMPARE(x > y, expected > 0);
        QCOMPARE(y<x, expected> 0);
        QCOMPARE(x <= y, expected <= 0);
    }

    void constructors_data() {
        QTest::addColumn<QByteArray>("kind");
        QTest::addColumn<qint64>("amount");
        QTest::addColumn<QByteArray>("expected");

        auto row = [](const char* kind, qint64 amount, const char* expected) {
            QTest::addRow("%s %lld", kind, static_cast<long long>(amount))
                << QByteArray(kind) << amount << QByteArray(expected);
        };
        row("units", 1, "1");
        row("units", 1000, "1k");
        row("units", 1234000, "1234k");
        row("binary units", 1024, "1Ki");
        row("binary units", 1048576, "1Mi");
        row("binary units", 1000, "1k"); // below 1Ki a binary value prints in decimal SI
        row("exponent units", 1000000, "1e6");
        row("millis", 1, "1m");
        row("millis", 1000, "1");
        row("millis", 1234000, "1234");
        row("millis", -1500, "-1500m");
        row("nanos", 1, "1n");
        // NewMilliQuantity(1024, BinarySI) prints "1024m".
        row("binary nanos", 1024000000, "1024m");
    }

    void constructors() {
        QFETCH(QByteArray, kind);
        QFETCH(qint64, amount);
        QFETCH(QByteArray, expected);

        Quantity q;
        if (kind == "units")
            q = Quantity::fromUnits(amount);
        else if (kind == "binary units")
            q = Quantity::fromUnits(amount, Quantity::Format::BinarySI);
        else if (kind == "exponent units")
            q = Quantity::fromUnits(amount, Quantity::Format::DecimalExponent);
        else if (kind == "millis")
            q = Quantity::fromMillis(amount);
        else if (kind == "binary nanos")
            q = Quantity::fromNanos(amount, Quantity::Format::BinarySI);
        else
            q = Quantity::fromNanos(amount);
        QCOMPARE(str(q), expected);
        QVERIFY(parsed(expected) == q);
    }

    void int64Extremes() {
        QCOMPARE(Quantity::fromUnits(kMax).value(), kMax);
        QCOMPARE(Quantity::fromUnits(kMin).value(), kMin);
        QCOMPARE(Quantity::fromUnits(kMax).milliValue(), kMax);
        QCOMPARE(Quantity::fromUnits(kMin).milliValue(), kMin);
        QCOMPARE(str(Quantity::fromUnits(kMin)), QByteArray("-9223372036854775808"));
        QCOMPARE(Quantity::fromMillis(kMax).milliValue(), kMax);
        QCOMPARE(Quantity::fromMillis(kMax).value(), kMax / 1000 + 1);
    }

    void tinyValues() {
        QCOMPARE(parsed("1n").milliValue(), qint64(1));
        QCOMPARE(parsed("1n").value(), qint64(1));
        QVERIFY(parsed("0.1n") == parsed("1n"));
        QVERIFY(parsed("0.000000000000000000000000000000000000000000001") == parsed("1n"));
        QVERIFY(parsed("1e-100") == parsed("1n"));
        QVERIFY(parsed("-1e-100") == parsed("-1n"));
        QVERIFY(parsed("1.0000000001") == parsed("1000000001n"));
        QVERIFY(parsed("0e99999") == Quantity());
        QVERIFY(parsed("0.000000000000000000000000000000000000000000000000000Ki").isZero());
        QVERIFY(parsed("1n").nanos() == 1);
    }

    void defaultIsZero() {
        const Quantity q;
        QVERIFY(q.isZero());
        QVERIFY(!q.isNegative());
        QCOMPARE(str(q), QByteArray("0"));
        QCOMPARE(q.value(), qint64(0));
        QVERIFY(parsed("-1m").isNegative());
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestQuantity)
#include "test_quantity.moc"
