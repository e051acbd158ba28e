#pragma once

#include <QDialog>
#include <QString>

#include <functional>
#include <vector>

class QLineEdit;
class QListWidget;

namespace topodeck {

// Ctrl+K: find any node, domain or action by typing part of its name; Enter goes there or runs it.
// Matching is a case-insensitive substring test over lowercase names kept beside the entries, so
// one keystroke over 65,536 nodes stays within a few milliseconds; at most kMaxShown are listed.
class CommandPalette : public QDialog {
    Q_OBJECT
public:
    static constexpr int kMaxShown = 200;

    struct Entry {
        QString text;   // what is listed: "rack su-1/rack-1-04", "Zoom In  (Ctrl++)"
        QString kind;   // "node", "domain", "action"
        std::function<void()> run;
    };

    explicit CommandPalette(QWidget* parent = nullptr);

    // Replaces the entries of one kind (the window refreshes nodes and domains when the cluster changes).
    void setEntries(const QString& kind, std::vector<Entry> entries);
    // Opens with an empty query.
    void popup();
    // The entries matching `query`, best first (prefix matches before others), at most kMaxShown.
    std::vector<const Entry*> matches(const QString& query) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void refill();
    void runCurrent();

    QLineEdit* m_query = nullptr;
    QListWidget* m_list = nullptr;
    std::vector<Entry> m_entries;
    std::vector<QString> m_lower; // m_entries' texts, lowercase
    std::vector<const Entry*> m_shown;
};

} // namespace topodeck
