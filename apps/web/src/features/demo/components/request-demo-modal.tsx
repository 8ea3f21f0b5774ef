import { ZDemoRequest } from '@herald/shared/demo/demo.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form-alert.tsx';
import { fieldError } from '../../../components/text-field-error.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCreateDemoRequest } from '../api/create-demo-request.ts';

const FIELDS = ['name', 'email', 'phone', 'message'] as const;
type Values = { name: string; email: string; phone: string; message: string };

/** Request demo (spec section 2): name, e-mail, phone, message; Cancel and Confirm; 'Success Demo'. */
export function RequestDemoModal({
  opened,
  onClose,
  defaults,
}: {
  opened: boolean;
  onClose: () => void;
  /** The signed-in user's name, e-mail and phone, so most people only add a message. */
  defaults: Omit<Values, 'message'>;
}) {
  const { t } = useTranslation('demo');
  const create = useCreateDemoRequest();
  const [rest, setRest] = useState<string[]>([]);
  const initial = { ...defaults, message: '' };
  const form = useForm<Values>({
    mode: 'onTouched',
    resolver: zodResolver(ZDemoRequest) as never,
    values: initial,
  });
  const { errors, isSubmitting } = form.formState;

  const close = () => {
    form.reset(initial);
    setRest([]);
    onClose();
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setRest([]);
    await delay(SUBMIT_DELAY_MS);
    try {
      await create.mutateAsync(values);
      notifySuccess(t('success'));
      close();
    } catch (error) {
      const others = applyServerErrors(error, form.setError, FIELDS);
      if (isApiError(error) && error.status !== 422) setRest([describeApiError(error)]);
      else setRest(others);
    }
  });

  return (
    <Modal opened={opened} onClose={close} title={t('title')} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormAlert messages={rest} />
          <TextInput
            label={t('name')}
            required
            data-autofocus
            {...form.register('name')}
            error={fieldError(errors.name)}
          />
          <TextInput
            label={t('email')}
            type="email"
            required
            {...form.register('email')}
            error={fieldError(errors.email)}
          />
          <TextInput
            label={t('phone')}
            type="tel"
            required
            {...form.register('phone')}
            error={fieldError(errors.phone)}
          />
          <Textarea
            label={t('message')}
            autosize
            minRows={3}
            maxRows={8}
            {...form.register('message')}
            error={fieldError(errors.message)}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={isSubmitting}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={isSubmitting}>
              {t('common:confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
