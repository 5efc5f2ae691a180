/** Vue 3 with `<esim-widget>`: define the element, load its template types, mount the app. */
import '@esim-embed/widget/define';
import type {} from '@esim-embed/widget/vue';
import { createApp } from 'vue';
import TravelStore from './TravelStore.vue';

createApp(TravelStore).mount('#app');
