/**
 * @module
 * Russian messages of the after-sale views (manage link, "my eSIM", top-up offers, help).
 */
import type { AfterSaleMessages } from '../messages';

export const afterSaleRu: AfterSaleMessages = {
  manageLinkHeading: 'Вернуться к этой eSIM',
  manageLinkIntro:
    'Сохраните ссылку, чтобы потом проверить остаток трафика, пополнить eSIM или получить помощь. Любой, у кого есть ссылка, может открыть эту eSIM, поэтому не передавайте её.',
  manageLinkLabel: 'Ссылка на вашу eSIM',
  manageLinkCopy: 'Копировать ссылку',
  manageLinkShare: 'Поделиться ссылкой',
  manageLinkShow: 'Показать ссылку',
  manageLinkValidUntil: 'Ссылка действует до {time}.',
  manageLinkFailed: 'Не удалось создать ссылку на эту eSIM. С самой eSIM всё в порядке.',
  manageLinkInvalid: 'Срок действия ссылки истёк или она больше не действует. Обратитесь в {brand} за новой.',

  helpHeading: 'Нужна помощь?',
  helpInstallFailed: 'Не удалось установить',
  helpNotWorking: 'eSIM не работает',
  helpInstallFailedAdvice:
    'Проверьте, что телефон подключён к интернету и поддерживает eSIM, и попробуйте QR-код или ручной ввод ещё раз. Если не получается, поможет {brand}.',
  helpNotWorkingAdvice:
    'Включите eSIM и роуминг данных для неё, затем перезагрузите телефон. Если всё равно не работает, поможет {brand}.',
  helpEmail: 'Написать на {email}',

  myEsimHeading: 'Моя eSIM',
  planUnknown: 'Сведения о тарифе недоступны.',
  usageHeading: 'Трафик',
  usageMeterLabel: 'Израсходовано',
  usageUsedOfTotal: 'Израсходовано {used} из {total}',
  usageLeft: 'Осталось {left}',
  usageUsedUnlimited: 'Израсходовано {used} (безлимитный тариф)',
  usageFresh: 'Обновлено {time}.',
  usageStale: 'Последние известные данные на {time}: они могут отставать.',
  usageStaleUndated: 'Последние известные данные: они могут отставать.',
  usageUnavailable: 'Сейчас расход трафика показать нельзя. На связь это не влияет.',
  datesHeading: 'Сроки',
  activatedAt: 'Активирована',
  notActivated: 'Ещё не активирована',
  activateBy: 'Установить и активировать до',
  validUntil: 'Действует до',
  stateExpired: 'Срок действия тарифа истёк.',
  stateDepleted: 'Весь трафик израсходован.',
  stateRevoked: 'Эта eSIM больше не активна.',
  notInstalled: 'Эта eSIM ещё не установлена.',
  showInstallation: 'Показать установку',

  topUpIntro: 'Добавить трафик на эту eSIM:',
  topUpChoose: 'Добавить',
  topUpChooseLabel: 'Добавить {plan}, {price}',
  topUpNone: 'Сейчас для этой eSIM нет пополнений.',
  topUpNotSupported: 'Эту eSIM нельзя пополнить. Чтобы оставаться на связи, купите новую eSIM.',
  topUpNotEnabled: '{brand} не предлагает пополнение для этой eSIM.',
  topUpCompatibilityUnverified:
    'Мы пока не можем подтвердить, что пополнение подойдёт к этой eSIM, поэтому не предлагаем его. Проверьте позже.',
  topUpTemporarilyUnavailable: 'Пополнение временно недоступно. Проверьте через несколько минут.',
  topUpProfileIneligible:
    'Эту eSIM нельзя пополнить в её текущем состоянии (например, срок истёк или она не установлена).',
  checkAgain: 'Проверить снова',
  toppedUp: 'Пополнение зачислено на eSIM. Цифры могут обновиться через несколько минут.',
};
