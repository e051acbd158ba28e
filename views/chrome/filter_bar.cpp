#include "views/chrome/filter_bar.h"

#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <QVBoxLayout>

namespace topodeck {

FilterBar::FilterBar(QWidget* parent)
    : QWidget(parent), m_edit(new QLineEdit(this)), m_message(new QLabel(this)), m_debounce(new QTimer(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    m_edit->setPlaceholderText(
        tr("Filter: rack=rack-1-04, nvidia.com/gpu.clique in (a,b), !node.kubernetes.io/unschedulable"));
    m_edit->setToolTip(tr("A Kubernetes label selector over the nodes' labels: key=value, key!=value, "
                          "key in (a,b), key notin (a), key, !key; commas join requirements that must all "
                          "hold. Enter applies at once, Esc clears."));
    m_edit->setAccessibleName(tr("Node filter"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setMaxLength(int(LabelSelector::kMaxLength));
    m_edit->installEventFilter(this);
    layout->addWidget(m_edit);

    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Red that reads on the light and the dark theme alike.
    QPalette errorPalette = m_message->palette();
    errorPalette.setColor(QPalette::WindowText, QColor(220, 53, 69));
    m_message->setPalette(errorPalette);
    m_message->hide();
    layout->addWidget(m_message);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);
    connect(m_debounce, &QTimer::timeout, this, &FilterBar::apply);
    connect(m_edit, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_edit, &QLineEdit::returnPressed, this, &FilterBar::apply);
}

void FilterBar::setFilterText(const QString& text) {
    m_edit->setText(text);
    apply();
}

void FilterBar::focusFilter() {
    m_edit->setFocus(Qt::ShortcutFocusReason);
    m_edit->selectAll();
}

void FilterBar::clearFilter() {
    m_edit->clear();
    apply();
}

bool FilterBar::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_edit && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape && !m_edit->text().isEmpty()) {
        clearFilter();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void FilterBar::apply() {
    m_debounce->stop();
    const QByteArray text = m_edit->text().toUtf8();
    Result<LabelSelector> parsed = LabelSelector::parse(std::string_view(text.constData(), std::size_t(text.size())));
    if (!parsed) return showError(QString::fromStdString(parsed.error().message));
    m_error.clear();
    m_message->hide();
    std::shared_ptr<const LabelSelector> selector;
    if (!parsed->empty()) selector = std::make_shared<const LabelSelector>(std::move(parsed).value());
    const bool same = selector == m_selector || (selector && m_selector && *selector == *m_selector);
    if (same) return;
    m_selector = std::move(selector);
    Q_EMIT selectorChanged(m_selector);
}

void FilterBar::showError(const QString& error) {
    m_error = error;
    const QString kept = m_selector ? tr("still filtering by %1").arg(QString::fromStdString(m_selector->toString()))
                                    : tr("no filter in effect");
    m_message->setText(tr("%1 (%2)").arg(error, kept));
    m_message->show();
}

} // namespace topodeck
