#include "views/chrome/command_palette.h"

#include <QCoreApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace topodeck {

CommandPalette::CommandPalette(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Go to…"));
    auto* layout = new QVBoxLayout(this);
    m_query = new QLineEdit(this);
    m_query->setPlaceholderText(tr("A node, a domain (su-1/rack-1-04) or an action"));
    m_query->setAccessibleName(tr("Search"));
    m_list = new QListWidget(this);
    m_list->setUniformItemSizes(true);
    m_list->setAccessibleName(tr("Matches"));
    layout->addWidget(m_query);
    layout->addWidget(m_list);
    resize(560, 420);
    m_query->installEventFilter(this);
    connect(m_query, &QLineEdit::textChanged, this, &CommandPalette::refill);
    connect(m_query, &QLineEdit::returnPressed, this, &CommandPalette::runCurrent);
    connect(m_list, &QListWidget::itemActivated, this, &CommandPalette::runCurrent);
}

void CommandPalette::setEntries(const QString& kind, std::vector<Entry> entries) {
    std::vector<Entry> kept;
    for (Entry& entry : m_entries)
        if (entry.kind != kind) kept.push_back(std::move(entry));
    for (Entry& entry : entries) {
        entry.kind = kind;
        kept.push_back(std::move(entry));
    }
    m_entries = std::move(kept);
    m_lower.clear();
    m_lower.reserve(m_entries.size());
    for (const Entry& entry : m_entries) m_lower.push_back(entry.text.toLower());
    if (isVisible()) refill();
}

void CommandPalette::popup() {
    m_query->clear();
    refill();
    show();
    raise();
    activateWindow();
    m_query->setFocus();
}

std::vector<const CommandPalette::Entry*> CommandPalette::matches(const QString& query) const {
    const QString needle = query.trimmed().toLower();
    std::vector<const Entry*> prefix;
    std::vector<const Entry*> inside;
    for (std::size_t i = 0; i < m_entries.size() && prefix.size() < std::size_t(kMaxShown); ++i) {
        const QString& text = m_lower[i];
        // The part after the kind word ("rack ", "node ") counts as the start too.
        const qsizetype at = needle.isEmpty() ? 0 : text.indexOf(needle);
        if (at < 0) continue;
        const bool atStart = at == 0 || text.at(at - 1) == QLatin1Char(' ') || text.at(at - 1) == QLatin1Char('/');
        (atStart ? prefix : inside).push_back(&m_entries[i]);
    }
    for (const Entry* entry : inside) {
        if (prefix.size() >= std::size_t(kMaxShown)) break;
        prefix.push_back(entry);
    }
    return prefix;
}

void CommandPalette::refill() {
    m_shown = matches(m_query->text());
    m_list->clear();
    for (const Entry* entry : m_shown) m_list->addItem(QStringLiteral("%1 — %2").arg(entry->text, entry->kind));
    if (!m_shown.empty()) m_list->setCurrentRow(0);
}

void CommandPalette::runCurrent() {
    const int row = m_list->currentRow();
    if (row < 0 || std::size_t(row) >= m_shown.size()) return;
    const std::function<void()> run = m_shown[std::size_t(row)]->run; // the entries may change when it runs
    hide();
    // Back to the window it was opened over, so that its shortcuts work at once.
    if (QWidget* owner = parentWidget()) owner->activateWindow();
    if (run) run();
}

bool CommandPalette::eventFilter(QObject* watched, QEvent* event) {
    // Up and Down move in the list while typing goes on in the line edit.
    if (watched == m_query && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Down || key == Qt::Key_Up || key == Qt::Key_PageDown || key == Qt::Key_PageUp) {
            QCoreApplication::sendEvent(m_list, event);
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

} // namespace topodeck
